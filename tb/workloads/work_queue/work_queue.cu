// work_queue: dynamic work distribution through a global queue. A fixed grid of
// persistent blocks takes items from one global counter: thread 0 of a block
// takes the next item index with atomicAdd and the block hashes that item's
// slice, until the counter passes the last item. Items differ in cost (item i
// makes i % 7 + 1 passes over its slice), so which block gets which item is set
// by the order in which the blocks' atomics reach the counter: the returned
// values steer the work, as in a ray tracer's or a graph kernel's work pool.
extern "C" __global__ void work_queue(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                      unsigned* next, unsigned items, unsigned item_len) {
  __shared__ unsigned item;
  for (;;) {
    if (threadIdx.x == 0) item = atomicAdd(next, 1u);
    __syncthreads();
    const unsigned i = item;
    if (i >= items) break;  // the whole block leaves together
    const unsigned passes = i % 7u + 1u;
    for (unsigned e = threadIdx.x; e < item_len; e += blockDim.x) {
      const unsigned v = in[i * item_len + e];
      unsigned acc = i;
      for (unsigned p = 0; p < passes; ++p) acc = acc * 2654435761u + (v ^ p);
      out[i * item_len + e] = acc;
    }
    __syncthreads();  // every thread has read `item` before thread 0 takes the next
  }
}
