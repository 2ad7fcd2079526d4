/* Fuzz target: the platform reader (ios_platform_load), which validates the XML in a child process before SimGrid
 * loads it in the caller (SimGrid aborts on many bad platforms). SimGrid holds one platform per process, so every
 * input is loaded in a child of its own: a child killed by a signal is a crash of iosim's loader (its own validation
 * child catches SimGrid's aborts and turns them into exit-2 errors), and this target then aborts so the fuzzer keeps
 * the input. See docs/fuzzing.md. */
#include "fuzz_common.h"
#include "ios_platform.h"

#include <signal.h>
#include <simgrid/engine.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = ios_fuzz_file(data, size, ".xml");
  if (path == NULL) return 0;
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    /* the fuzzer's crash handlers must not fire in the loader's own validation child, where SimGrid's aborts on bad
     * platforms are expected and reported as exit-2 errors: default handlers, as in iosim */
    const int deadly[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof deadly / sizeof *deadly; i++)
      signal(deadly[i], SIG_DFL);
    int argc = 2;
    char *argv[] = {"fuzz_platform", "--log=root.thres:critical", NULL};
    simgrid_init(&argc, argv);
    ios_platform_t p;
    int rc = ios_platform_load(path, NULL, &p);
    if (rc == 0) ios_platform_free(&p);
    _exit(rc == 0 ? 0 : 2);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    ;
  if (WIFSIGNALED(status)) abort(); /* the loader crashed: keep the input */
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2) abort(); /* a sanitizer's report */
  return 0;
}
