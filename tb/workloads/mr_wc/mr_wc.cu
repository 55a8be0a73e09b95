// mr_wc: word count on a Mars-style MapReduce runtime (WC of the Mars suite;
// map and group, no reduce: a word's count is its group's size). The input is
// upper-case text cut by the host into records of about 2 KB that end with a
// '\0' after a word; a record's key is {text} and its value {offset, size}.
//   wc_map_count   thread per record: walks its bytes one at a time, ends
//                  every word with '\0' in place (over the separator) and, for
//                  each word of at least 6 letters, adds the word's bytes (its
//                  '\0' included) to its key bytes, 4 to its value bytes, 1 to
//                  its pairs;
//   wc_prefix_sum  the runtime's one-block scan (three times: key bytes,
//                  value bytes, pairs);
//   wc_map         the same walk again, copying each such word byte by byte
//                  into the intermediate keys at its offset, its size into
//                  the values, and writing the index entry;
//   wc_bitonic_step  the group phase's sort of the index entries by the words
//                  (a comparison walks both strings byte by byte);
//   wc_group_marks, wc_prefix_sum, wc_group_starts  the groups of equal words.
#include "../mars_runtime.cuh"

struct WcKey {  // the key record: 8 bytes
  char* text;
};

struct WcVal {  // the value record: 8 bytes
  int offset;
  int size;
};

__device__ __forceinline__ bool wc_letter(char c) { return c >= 'A' && c <= 'Z'; }

// WC's key order: the words as C strings.
struct WcCompare {
  const char* keys;
  __device__ int operator()(int4 a, int4 b) const {
    const char* s = keys + a.x;
    const char* t = keys + b.x;
    for (; *s != '\0' && *t != '\0' && *s == *t; ++s, ++t) {
    }
    return *s > *t ? 1 : (*s < *t ? -1 : 0);
  }
};

// Walks one record: ends each word with '\0' and calls emit(start, bytes) for
// the words of at least 6 letters (bytes counts the '\0').
template <class Emit>
__device__ __forceinline__ void wc_walk(const int4& ix, const char* keys, const char* vals, Emit emit) {
  const WcKey* key = reinterpret_cast<const WcKey*>(keys + ix.x);
  const WcVal* val = reinterpret_cast<const WcVal*>(vals + ix.z);
  char* p = key->text + val->offset;
  const int size = val->size;
  int used = 0;
  while (true) {
    char* start = p;
    for (; wc_letter(*p); ++p, ++used) {
    }
    *p = '\0';
    ++p;
    ++used;
    const int bytes = int(p - start);
    if (bytes > 6) emit(start, bytes);
    for (; used < size && !wc_letter(*p); ++p, ++used) {
    }
    if (used >= size) break;
  }
}

extern "C" __global__ void wc_map_count(const int4* __restrict__ index, const char* keys, const char* vals,
                                        int* key_bytes, int* val_bytes, int* pairs, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  int kb = 0, np = 0;
  wc_walk(index[t], keys, vals, [&](const char*, int bytes) {
    kb += bytes;
    ++np;
  });
  key_bytes[t] = kb;
  val_bytes[t] = np * 4;
  pairs[t] = np;
}

MARS_SCAN_KERNEL(wc)

extern "C" __global__ void wc_map(const int4* __restrict__ index, const char* keys, const char* vals,
                                  const int* key_off, const int* val_off, const int* pair_off, char* inter_keys,
                                  int* inter_vals, int4* inter_index, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  int ko = key_off[t], vo = val_off[t], po = pair_off[t];
  wc_walk(index[t], keys, vals, [&](const char* word, int bytes) {
    for (int i = 0; i < bytes; ++i) inter_keys[ko + i] = word[i];
    inter_vals[vo / 4] = bytes;
    inter_index[po] = make_int4(ko, bytes, vo, 4);
    ko += bytes;
    vo += 4;
    ++po;
  });
}

MARS_GROUP_KERNELS(wc, WcCompare)
