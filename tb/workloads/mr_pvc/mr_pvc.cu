// mr_pvc: page view count on a Mars-style MapReduce runtime (PVC of the Mars
// suite): two MapReduce passes over a web log of "URL\tIP\tcookie" entries.
// Pass 1 (map, group, reduce) removes duplicate entries:
//   pvc_map_count    every entry emits one pair (16-byte key, 8-byte value);
//   pvc_map          hashes its entry a byte at a time, stores the hash in
//                    its key record and copies key and value out;
//   group            sort by (hash, entry bytes), marks, starts;
//   pvc_reduce_count every group emits one pair;
//   pvc_reduce       a thread per group: marks the group's first value as
//                    phase 1 and copies its key and value out.
// Pass 2 (map, group) counts the distinct visitors of each page:
//   pvc_map_count    every entry emits one pair (16-byte key, 4-byte value);
//   pvc_map          walks its entry to the first tab, ends the URL there
//                    with '\0' (in place) and the IP at the next tab, hashes
//                    the URL and emits {key, IP offset};
//   group            sort by (hash, URL bytes): a group's size is the page's
//                    number of distinct visitors.
#include "../mars_runtime.cuh"

struct PvcKey {  // 16 bytes
  char* log;
  int offset;  // of the entry in the log
  unsigned hash;
};

struct PvcVal {  // 8 bytes
  int phase;
  int size;  // of the entry, its '\0' included
};

__device__ __forceinline__ unsigned pvc_hash(const char* s, int len) {
  unsigned h = unsigned(len);
  for (int i = 0; i < len; ++i) h = (h << 4) ^ (h >> 28) ^ unsigned((unsigned char)s[i]);
  return h;
}

// Both passes order keys by hash, then by the bytes up to the first '\0'.
struct PvcCompare {
  const char* keys;
  __device__ int operator()(int4 a, int4 b) const {
    const PvcKey* ka = reinterpret_cast<const PvcKey*>(keys + a.x);
    const PvcKey* kb = reinterpret_cast<const PvcKey*>(keys + b.x);
    if (ka->hash != kb->hash) return ka->hash > kb->hash ? 1 : -1;
    const char* s = ka->log + ka->offset;
    const char* t = kb->log + kb->offset;
    for (; *s == *t && *s != '\0'; ++s, ++t) {
    }
    return *s > *t ? 1 : (*s < *t ? -1 : 0);
  }
};

__device__ __forceinline__ void pvc_copy(char* dst, const char* src, int bytes) {
  for (int i = 0; i < bytes / 4; ++i) reinterpret_cast<int*>(dst)[i] = reinterpret_cast<const int*>(src)[i];
}

extern "C" __global__ void pvc_map_count(const int4* __restrict__ index, const char* keys, const char* vals,
                                         int* key_bytes, int* val_bytes, int* pairs, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const PvcVal* val = reinterpret_cast<const PvcVal*>(vals + index[t].z);
  key_bytes[t] = sizeof(PvcKey);
  val_bytes[t] = val->phase == 0 ? int(sizeof(PvcVal)) : int(sizeof(int));
  pairs[t] = 1;
}

MARS_SCAN_KERNEL(pvc)

extern "C" __global__ void pvc_map(const int4* __restrict__ index, char* keys, char* vals, const int* key_off,
                                   const int* val_off, const int* pair_off, char* out_keys, char* out_vals,
                                   int4* out_index, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const int4 ix = index[t];
  PvcKey* key = reinterpret_cast<PvcKey*>(keys + ix.x);
  const PvcVal* val = reinterpret_cast<const PvcVal*>(vals + ix.z);
  char* entry = key->log + key->offset;
  const int ko = key_off[t], vo = val_off[t];
  if (val->phase == 0) {
    key->hash = pvc_hash(entry, val->size);
    pvc_copy(out_keys + ko, reinterpret_cast<const char*>(key), sizeof(PvcKey));
    pvc_copy(out_vals + vo, reinterpret_cast<const char*>(val), sizeof(PvcVal));
    out_index[pair_off[t]] = make_int4(ko, sizeof(PvcKey), vo, sizeof(PvcVal));
  } else {
    char* p = entry;
    int url = 1;  // the URL's bytes with its '\0'
    for (; *p != '\t'; ++p, ++url) {
    }
    *p = '\0';
    const int ip = key->offset + url;
    for (; *p != '\t'; ++p) {
    }
    *p = '\0';
    key->hash = pvc_hash(entry, url);
    pvc_copy(out_keys + ko, reinterpret_cast<const char*>(key), sizeof(PvcKey));
    *reinterpret_cast<int*>(out_vals + vo) = ip;
    out_index[pair_off[t]] = make_int4(ko, sizeof(PvcKey), vo, sizeof(int));
  }
}

MARS_GROUP_KERNELS(pvc, PvcCompare)

extern "C" __global__ void pvc_reduce_count(int* key_bytes, int* val_bytes, int* pairs, int ngroups) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  key_bytes[g] = sizeof(PvcKey);
  val_bytes[g] = sizeof(PvcVal);
  pairs[g] = 1;
}

extern "C" __global__ void pvc_reduce(const char* inter_keys, char* inter_vals, const int4* sorted, int first,
                                      const int* starts, const int* key_off, const int* val_off, const int* pair_off,
                                      char* out_keys, char* out_vals, int4* out_index, int ngroups) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  const int4 head = sorted[first + starts[g]];
  PvcVal* val = reinterpret_cast<PvcVal*>(inter_vals + head.z);
  val->phase = 1;
  const int ko = key_off[g], vo = val_off[g];
  pvc_copy(out_keys + ko, inter_keys + head.x, sizeof(PvcKey));
  pvc_copy(out_vals + vo, reinterpret_cast<const char*>(val), sizeof(PvcVal));
  out_index[pair_off[g]] = make_int4(ko, sizeof(PvcKey), vo, sizeof(PvcVal));
}
