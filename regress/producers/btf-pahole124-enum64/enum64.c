// An enum with 64-bit values, as sched_ext's DSQ IDs (and kernel enums since 6.0) have.
enum dsq_id { DSQ_LOCAL = 1, DSQ_GLOBAL = 0x8000000000000001ULL, DSQ_INVALID = 0x8000000000000000ULL };
enum dsq_id g_dsq;
