// mr_kmn: k-means written against a Mars-style MapReduce runtime, with the
// runtime's own kernels (KMN of the Mars suite). One clustering iteration is
// one MapReduce pass:
//   kmn_map_count   thread per input record: every record emits one pair, so
//                   each thread records its key bytes, value bytes and pairs;
//   kmn_prefix_sum  one block, 256-entry shared-memory scan per chunk with a
//                   running carry (exclusive): run three times, on the key
//                   bytes, the value bytes and the pair counts;
//   kmn_map         thread per record: reads its {key offset, key size, value
//                   offset, value size} index entry, the 24-byte key
//                   {point id, dim, K, cluster-id array} and the 24-byte value
//                   {points, centres, change flag} records, the point (dim
//                   ints, point-major) and the centres; re-reads the point for
//                   every centre; moves the point to a strictly nearer centre
//                   (raising the change flag) and copies key and value into
//                   the intermediate buffers at its scanned offsets;
//   kmn_bitonic_step  the group phase's sort: a global bitonic network over
//                   the intermediate index entries (padded to a power of two
//                   with entries marked -1, which sort first), one launch per
//                   (k, j); a comparison reads both keys and their points'
//                   cluster ids;
//   kmn_group_marks, kmn_prefix_sum, kmn_group_starts  mark where the
//                   cluster id changes along the sorted entries, scan the
//                   marks, write each group's first entry;
//   kmn_reduce      thread per group: the mean of the group's points (integer
//                   division) becomes its centre.

#include "../mars_runtime.cuh"

struct KmnKey {  // the key record: 24 bytes
  int point_id;
  int dim;
  int k;
  int* cluster_id;
};

struct KmnVal {  // the value record: 24 bytes
  int* points;
  int* centres;
  int* change;
};

__device__ __forceinline__ int kmn_sq_dist(const int* a, const int* b, int dim) {
  int d = 0;
  for (int i = 0; i < dim; ++i) {
    const int delta = a[i] - b[i];
    d += delta * delta;
  }
  return d;
}

// KMN's key order: by the point's cluster id.
struct KmnCompare {
  const char* keys;
  __device__ int operator()(int4 a, int4 b) const {
    const KmnKey* ka = reinterpret_cast<const KmnKey*>(keys + a.x);
    const KmnKey* kb = reinterpret_cast<const KmnKey*>(keys + b.x);
    const int ca = ka->cluster_id[ka->point_id];
    const int cb = kb->cluster_id[kb->point_id];
    return ca > cb ? 1 : (ca < cb ? -1 : 0);
  }
};

extern "C" __global__ void kmn_map_count(const int4* __restrict__ index, const char*, const char*, int* key_bytes,
                                         int* val_bytes, int* pairs, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const int4 ix = index[t];
  key_bytes[t] = ix.y;
  val_bytes[t] = ix.w;
  pairs[t] = 1;
}

MARS_SCAN_KERNEL(kmn)

extern "C" __global__ void kmn_map(const int4* __restrict__ index, char* keys, const char* vals,
                                   const int* key_off, const int* val_off, const int* pair_off, char* inter_keys,
                                   char* inter_vals, int4* inter_index, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const int4 ix = index[t];
  KmnKey* key = reinterpret_cast<KmnKey*>(keys + ix.x);
  const KmnVal* val = reinterpret_cast<const KmnVal*>(vals + ix.z);

  const int id = key->point_id;
  const int dim = key->dim;
  const int k = key->k;
  int* cluster_id = key->cluster_id;
  const int* point = val->points + id * dim;
  const int* centres = val->centres;
  const int current = cluster_id[id];
  int best = current;
  int best_dist = kmn_sq_dist(point, centres + current * dim, dim);
  for (int c = 0; c < k; ++c) {
    const int d = kmn_sq_dist(point, centres + c * dim, dim);
    if (d < best_dist) {
      best_dist = d;
      best = c;
    }
  }
  if (best != current) {
    *val->change = 1;
    cluster_id[id] = best;
  }

  // Emit: copy the key and value records to the intermediate buffers.
  const int ko = key_off[t], vo = val_off[t];
  const int* ksrc = reinterpret_cast<const int*>(key);
  const int* vsrc = reinterpret_cast<const int*>(val);
  int* kdst = reinterpret_cast<int*>(inter_keys + ko);
  int* vdst = reinterpret_cast<int*>(inter_vals + vo);
  for (int i = 0; i < ix.y / 4; ++i) kdst[i] = ksrc[i];
  for (int i = 0; i < ix.w / 4; ++i) vdst[i] = vsrc[i];
  inter_index[pair_off[t]] = make_int4(ko, ix.y, vo, ix.w);
}

MARS_GROUP_KERNELS(kmn, KmnCompare)

extern "C" __global__ void kmn_reduce(const char* inter_keys, const char* inter_vals, const int4* sorted, int first,
                                      const int* starts, int ngroups, int n) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  const int begin = starts[g];
  const int end = g + 1 < ngroups ? starts[g + 1] : n;
  const int4 head = sorted[first + begin];
  const KmnKey* key = reinterpret_cast<const KmnKey*>(inter_keys + head.x);
  const KmnVal* val = reinterpret_cast<const KmnVal*>(inter_vals + head.z);
  const int dim = key->dim;
  int* centre = val->centres + key->cluster_id[key->point_id] * dim;
  const int* points = val->points;
  for (int i = 0; i < dim; ++i) centre[i] = 0;
  for (int r = begin; r < end; ++r) {
    const KmnKey* kr = reinterpret_cast<const KmnKey*>(inter_keys + sorted[first + r].x);
    const int* p = points + kr->point_id * dim;
    for (int i = 0; i < dim; ++i) centre[i] += p[i];
  }
  for (int i = 0; i < dim; ++i) centre[i] /= end - begin;
}
