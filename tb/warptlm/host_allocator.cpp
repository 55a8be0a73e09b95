// The host allocator's settings: jemalloc, where CMakeLists.txt links it (WARPTLM_JEMALLOC), reads this string
// at the process's first allocation. A run allocates its GPU's blocks at elaboration and touches most of them
// at once; on 4 KB pages every first touch is a page fault, and page faults were the largest cost of a short
// run (a fifth of the samples of tiny verify runs, measured with perf; docs/performance.md). On transparent
// huge pages one fault maps 2 MB. Its own environment variable, MALLOC_CONF, still overrides these settings.
// Nothing here changes a result: the allocator decides where the host keeps the model's state, never what it is.
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always,metadata_thp:always";
}
