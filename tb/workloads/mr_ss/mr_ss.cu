// mr_ss: similarity score on a Mars-style MapReduce runtime (SS of the Mars
// suite: map and group). One input record per document pair (i < j): key
// {matrix}, value {doc1, doc2, dim, result}. The documents are the rows of a
// row-major docs x dim float matrix.
//   ss_map_count  every pair emits one pair (4-byte key, 8-byte value);
//   ss_map        reads both rows a float4 at a time (the first row is the
//                 same for a warp's consecutive pairs, the second is 32
//                 different rows) and emits {cosine similarity} and
//                 {doc1, doc2};
//   group         the bitonic sort of the entries by score, group marks,
//                 starts (pairs of equal score form a group).
#include "../mars_runtime.cuh"

struct SsKey {  // 8 bytes
  const float* matrix;
};

struct SsVal {  // 16 bytes
  int doc1;
  int doc2;
  int dim;
  float result;
};

struct SsCompare {
  const char* keys;
  __device__ int operator()(int4 a, int4 b) const {
    const float x = *reinterpret_cast<const float*>(keys + a.x);
    const float y = *reinterpret_cast<const float*>(keys + b.x);
    return x > y ? 1 : (x < y ? -1 : 0);
  }
};

extern "C" __global__ void ss_map_count(const int4* __restrict__ index, const char* keys, const char* vals,
                                        int* key_bytes, int* val_bytes, int* pairs, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  key_bytes[t] = sizeof(float);
  val_bytes[t] = sizeof(int2);
  pairs[t] = 1;
}

MARS_SCAN_KERNEL(ss)

extern "C" __global__ void ss_map(const int4* __restrict__ index, const char* keys, const char* vals,
                                  const int* key_off, const int* val_off, const int* pair_off, char* out_keys,
                                  char* out_vals, int4* out_index, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const int4 ix = index[t];
  const SsKey* key = reinterpret_cast<const SsKey*>(keys + ix.x);
  const SsVal* val = reinterpret_cast<const SsVal*>(vals + ix.z);
  const int dim = val->dim, doc1 = val->doc1, doc2 = val->doc2;
  const float4* a = reinterpret_cast<const float4*>(key->matrix + doc1 * dim);
  const float4* b = reinterpret_cast<const float4*>(key->matrix + doc2 * dim);
  float up = 0.0f, down1 = 0.0f, down2 = 0.0f;
  for (int i = 0; i < dim / 4; ++i) {
    const float4 x = a[i], y = b[i];
    up += x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
    down1 += x.x * x.x + x.y * x.y + x.z * x.z + x.w * x.w;
    down2 += y.x * y.x + y.y * y.y + y.z * y.z + y.w * y.w;
  }
  const float result = up / (sqrtf(down1) * sqrtf(down2));
  const int ko = key_off[t], vo = val_off[t];
  *reinterpret_cast<float*>(out_keys + ko) = result;
  *reinterpret_cast<int2*>(out_vals + vo) = make_int2(doc1, doc2);
  out_index[pair_off[t]] = make_int4(ko, sizeof(float), vo, sizeof(int2));
}

MARS_GROUP_KERNELS(ss, SsCompare)
