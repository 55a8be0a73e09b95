// rd_kmeans: the GPU half of Rodinia's k-means, as its CUDA version splits it.
// kmeans_invert_mapping (launched once): one thread per point copies the
//   point's features from the file's point-major layout in[p][f] into the
//   feature-major layout out[f * npoints + p] the assignment kernel reads
//   (strided loads, coalesced stores).
// kmeans_point (launched once per clustering iteration): one thread per point
//   loops over the clusters and, for each, over the features, accumulating the
//   squared distance between the point (feature-major, coalesced across the
//   warp) and the centre (clusters[c * nfeatures + f], the same address for all
//   lanes); the first nearest centre wins (strict <) and its index goes to
//   membership[p]. No shared memory. The host recomputes the centres.
#include <cfloat>

extern "C" __global__ void kmeans_invert_mapping(const float* __restrict__ in, float* __restrict__ out,
                                                 int npoints, int nfeatures) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  for (int f = 0; f < nfeatures; ++f) out[(size_t)f * npoints + p] = in[(size_t)p * nfeatures + f];
}

extern "C" __global__ void kmeans_point(const float* __restrict__ features, const float* __restrict__ clusters,
                                        int* __restrict__ membership, int npoints, int nclusters, int nfeatures) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  int best = -1;
  float best_dist = FLT_MAX;
  for (int c = 0; c < nclusters; ++c) {
    const float* centre = clusters + (size_t)c * nfeatures;
    float dist = 0.0f;
    for (int f = 0; f < nfeatures; ++f) {
      const float d = features[(size_t)f * npoints + p] - centre[f];
      dist += d * d;
    }
    if (dist < best_dist) {
      best_dist = dist;
      best = c;
    }
  }
  membership[p] = best;
}
