/* examples/c-policy: iosim's policies called directly from a C program through libiosim's policy face
 * (include/iosim/policy.h), with no simulation. Every number it prints is computed by hand in README.md. */
#include <iosim/iosim.h>

#include <stdio.h>
#include <stdlib.h>

static void fail(const char *what) {
  fprintf(stderr, "c-policy: %s: %s\n", what, iosim_error());
  exit(1);
}

int main(void) {
  printf("libiosim %s\n", iosim_version(NULL, NULL, NULL));

  /* Bandwidth sharing on one resource of B = 1 GB/s with three pending transfers capped at 800, 800 and 100 MB/s,
   * posted at 0, 1 and 2 s (RR-9502 §4.1). */
  iosim_share_view_t *view = iosim_share_view_new(10.0, 1e9, 3);
  const double caps[3] = {800e6, 800e6, 100e6};
  for (int i = 0; i < 3; i++)
    if (iosim_share_view_set(view, i, IOSIM_T_CAP, caps[i]) != IOSIM_OK ||
        iosim_share_view_set(view, i, IOSIM_T_POSTED, (double)i) != IOSIM_OK)
      fail("share view");
  const char *sharing[2] = {"fairshare", "fcfs"};
  for (int k = 0; k < 2; k++) {
    double rates[3];
    const iosim_policy_t *p = iosim_policy_find(IOSIM_SHARING, sharing[k]);
    if (p == NULL || iosim_share(p, NULL, view, rates) != IOSIM_OK) fail(sharing[k]);
    printf("%-9s rates (MB/s): %.3f %.3f %.3f\n", sharing[k], rates[0] / 1e6, rates[1] / 1e6, rates[2] / 1e6);
  }
  iosim_share_view_free(view);

  /* Allocation and placement (RR-9549 §4): 4 I/O nodes of 1 GB/s, a machine of 64 compute nodes, three applications
   * whose bandwidth profiles b_j(n) ascend, descend and peak (MB/s at n = 1, 2, 4 I/O nodes). */
  const double cap4[4] = {1e9, 1e9, 1e9, 1e9};
  iosim_pool_t *pool = iosim_pool_new(4, cap4, 64);
  const int n[3] = {1, 2, 4};
  const double profiles[3][3] = {{400e6, 750e6, 1400e6}, {900e6, 700e6, 450e6}, {500e6, 900e6, 600e6}};
  for (int j = 0; j < 3; j++)
    if (iosim_pool_add_app(pool, 16, 64e9, 600, 3, n, profiles[j]) != j) fail("pool");
  int counts[3], res[12];
  const iosim_policy_t *bba = iosim_policy_find(IOSIM_ALLOCATION, "bba");
  const iosim_policy_t *gnc = iosim_policy_find(IOSIM_PLACEMENT, "greedy-non-clairvoyant");
  if (bba == NULL || gnc == NULL || iosim_allocate(bba, NULL, pool, NULL, counts) != IOSIM_OK ||
      iosim_place(gnc, NULL, pool, counts, NULL, res) != IOSIM_OK)
    fail("allocation and placement");
  printf("%s counts: %d %d %d\n", iosim_policy_name(bba), counts[0], counts[1], counts[2]);
  for (int j = 0, off = 0; j < 3; off += counts[j++]) {
    printf("%s places application %d on", iosim_policy_name(gnc), j);
    for (int i = 0; i < counts[j]; i++)
      printf(" %d", res[off + i]);
    printf("\n");
  }
  iosim_pool_free(pool);

  /* A parameter checked as a scenario checks it: `fixed` takes n >= 0, an integer. */
  const iosim_policy_t *fixed = iosim_policy_find(IOSIM_ALLOCATION, "fixed");
  iosim_params_t *params = iosim_params_new(fixed);
  if (iosim_params_set(params, "n", 2.5) == IOSIM_OK) fail("n = 2.5 was accepted");
  printf("refused: %s\n", iosim_error());
  iosim_params_free(params);

  /* StorAlloc worst-fit (§4.2) on one burst-buffer node of two 1 TB disks: the disk with the most free bytes. */
  iosim_storage_t *bb = iosim_storage_new();
  if (iosim_storage_add_node(bb, "bb0", 12.5e9, 2, 1e12, 3e9, 3e9) != IOSIM_OK) fail("storage");
  const iosim_policy_t *wf = iosim_policy_find(IOSIM_STORAGE, "worst-fit");
  iosim_params_t *wfp = iosim_params_new(wf);
  if (iosim_params_set(wfp, "ties", 1) != IOSIM_OK) fail("ties");
  int disk;
  if (iosim_storage_hold(bb, 0, 300e9, 3600, 0, 1) != IOSIM_OK ||
      iosim_storage_choose(wf, wfp, bb, 500e9, 600, 0, &disk) != IOSIM_STORAGE_CHOSEN)
    fail("worst-fit");
  printf("worst-fit puts 500 GB on disk %d\n", disk);
  if (iosim_storage_hold(bb, disk, 500e9, 600, 0, 2) != IOSIM_OK || iosim_storage_hold(bb, 1, 300e9, 7200, 0, 3) != 0 ||
      iosim_storage_choose(wf, wfp, bb, 100e9, 600, 0, &disk) != IOSIM_STORAGE_CHOSEN)
    fail("worst-fit");
  printf("then 100 GB on disk %d (free: %.0f GB and %.0f GB)\n", disk, iosim_storage_free_bytes(bb, 0) / 1e9,
         iosim_storage_free_bytes(bb, 1) / 1e9);
  iosim_params_free(wfp);
  iosim_storage_free(bb);
  return 0;
}
