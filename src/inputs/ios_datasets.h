/* iosim — where the readers and generators find the public datasets when the scenario names none: paths holding
 * ${IOSIM_DATA_DIR} (ios_expand_path, ios_scenario.h; traces/README.md says where each dataset comes from). One
 * definition, used by the generators that read them and by the checks that run before a campaign's first run
 * (src/campaign/point_inputs.c). */
#ifndef IOS_DATASETS_H
#define IOS_DATASETS_H

/** The FORGE MareNostrum 4 profiles (IPDPS'21 §3.2; RR-9549 §5.3): the rr9549 generator's workload.generator.profiles.
 */
#define IOS_DATA_FORGE_MN4 "${IOSIM_DATA_DIR}/bez-forge-evaluation/mn4_189_patterns_mean_bw_by_ionodes.csv"
/** The APEX workflow tables (RR-9502 §6.3.1): the apex generator's workload.generator.data, a directory. */
#define IOS_DATA_APEX "${IOSIM_DATA_DIR}/apex-workflows"
/** The IPDPS'21 queue generator's measurements: the kernels generator's workload.generator.data, a directory. */
#define IOS_DATA_KERNELS "${IOSIM_DATA_DIR}/boito-queue-generator"
/** The TOKIO-ABC job summaries (StorAlloc §5.1): storage.requests.generator.data of the "tokio" shape. */
#define IOS_DATA_TOKIO "${IOSIM_DATA_DIR}/tokio-abc/tokio_abc_jobs_slim.csv"

#endif
