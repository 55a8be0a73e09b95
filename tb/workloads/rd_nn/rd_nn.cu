// rd_nn: the GPU half of Rodinia's nearest neighbour (nn). One thread per
// record computes the Euclidean distance from the record's {lat, lng} (8-byte
// records, read once, coalesced) to the query point and stores it; the host
// then picks the k nearest. The grid may be two-dimensional (Rodinia's
// indexing for more than 65535 blocks). No shared memory, no loop.
struct LatLong {
  float lat;
  float lng;
};

extern "C" __global__ void nn_euclid(const LatLong* __restrict__ locations, float* __restrict__ distances,
                                     int nrecords, float lat, float lng) {
  const int id = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (id >= nrecords) return;
  const LatLong* ll = locations + id;
  distances[id] = sqrtf((lat - ll->lat) * (lat - ll->lat) + (lng - ll->lng) * (lng - ll->lng));
}
