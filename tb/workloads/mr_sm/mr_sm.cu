// mr_sm: string match on a Mars-style MapReduce runtime (SM of the Mars suite;
// map only). The input is a text of one word per line, cut by the host into
// records of about 1 KB ending at a line end; a record's key is {text,
// keyword} and its value {keyword size, offset, size}.
//   sm_map_count   thread per record: walks the record line by line, a byte
//                  at a time; a line of the keyword's length is compared with
//                  the keyword byte by byte; each match adds 4 key bytes, 4
//                  value bytes and 1 pair;
//   sm_prefix_sum  the runtime's one-block scan (three times);
//   sm_map         the same walk, emitting {line offset} and {line size}
//                  (the newline included) for each match at its offsets.
#include "../mars_runtime.cuh"

struct SmKey {  // the key record: 16 bytes
  const char* text;
  const char* keyword;
};

struct __align__(16) SmVal {  // the value record: 16 bytes
  int keyword_size;  // with its '\0'
  int offset;
  int size;
};

// Walks one record: calls emit(offset, size) for each line equal to the keyword.
template <class Emit>
__device__ __forceinline__ void sm_walk(const int4& ix, const char* keys, const char* vals, Emit emit) {
  const SmKey* key = reinterpret_cast<const SmKey*>(keys + ix.x);
  const SmVal* val = reinterpret_cast<const SmVal*>(vals + ix.z);
  const char* text = key->text;
  const char* keyword = key->keyword;
  const int keyword_size = val->keyword_size;
  const int end = val->offset + val->size;
  int start = val->offset;
  while (start < end) {
    int p = start;
    for (; text[p] != '\n'; ++p) {
    }
    const int line = p + 1 - start;  // the newline included
    if (line == keyword_size) {
      const char* s = text + start;
      const char* k = keyword;
      for (; *s == *k && *k != '\0'; ++s, ++k) {
      }
      if (*s == '\n') emit(start, line);
    }
    start = p + 1;
  }
}

extern "C" __global__ void sm_map_count(const int4* __restrict__ index, const char* keys, const char* vals,
                                        int* key_bytes, int* val_bytes, int* pairs, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  int np = 0;
  sm_walk(index[t], keys, vals, [&](int, int) { ++np; });
  key_bytes[t] = np * 4;
  val_bytes[t] = np * 4;
  pairs[t] = np;
}

MARS_SCAN_KERNEL(sm)

extern "C" __global__ void sm_map(const int4* __restrict__ index, const char* keys, const char* vals,
                                  const int* key_off, const int* val_off, const int* pair_off, int* out_keys,
                                  int* out_vals, int4* out_index, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  int ko = key_off[t], vo = val_off[t], po = pair_off[t];
  sm_walk(index[t], keys, vals, [&](int offset, int size) {
    out_keys[ko / 4] = offset;
    out_vals[vo / 4] = size;
    out_index[po] = make_int4(ko, 4, vo, 4);
    ko += 4;
    vo += 4;
    ++po;
  });
}
