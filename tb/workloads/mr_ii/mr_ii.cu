// mr_ii: inverted index on a Mars-style MapReduce runtime (II of the Mars
// suite: map and group). The input is HTML files cut by the host into records
// of about 1 KB ending at a line end (the newline becomes '\0'); a record's
// key is {file, URL offset} and its value {file id, offset, size}.
//   ii_map_count  thread per record: walks the record a byte at a time through
//                 the link automaton ('<', spaces, 'a', spaces, "href",
//                 spaces or '=', '"', the URL up to the next '"') and counts
//                 the links (16-byte key, 4-byte value each);
//   ii_map        the same walk; ends each URL with '\0' in place, records
//                 its offset in its key record and emits {key} and {file id};
//   group         the bitonic sort of the entries by URL (a comparison walks
//                 both URLs byte by byte), group marks, starts: a group is a
//                 URL and the files that link to it.
#include "../mars_runtime.cuh"

struct IiKey {  // 16 bytes
  char* file;
  int url;  // offset of the URL in the file
  int pad;
};

struct IiVal {  // 12 bytes
  int file_id;
  int offset;
  int size;
};

struct IiCompare {
  const char* keys;
  __device__ int operator()(int4 a, int4 b) const {
    const IiKey* ka = reinterpret_cast<const IiKey*>(keys + a.x);
    const IiKey* kb = reinterpret_cast<const IiKey*>(keys + b.x);
    const char* s = ka->file + ka->url;
    const char* t = kb->file + kb->url;
    for (; *s == *t && *s != '\0'; ++s, ++t) {
    }
    return *s > *t ? 1 : (*s < *t ? -1 : 0);
  }
};

// Walks one record; calls link(offset in the file, end) for each URL found.
template <class Link>
__device__ __forceinline__ void ii_walk(char* buf, int offset, int size, Link link) {
  enum { kStart, kTag, kATag, kHref, kLink };
  int state = kStart;
  for (int j = 0; j < size; ++j) {
    const char c = buf[offset + j];
    switch (state) {
      case kStart:
        if (c == '<') state = kTag;
        break;
      case kTag:
        state = c == 'a' ? kATag : (c == ' ' ? kTag : kStart);
        break;
      case kATag:
        if (c == 'h') {
          const char* h = buf + offset + j;
          if (h[1] == 'r' && h[2] == 'e' && h[3] == 'f') {
            state = kHref;
            j += 3;
          } else {
            state = kStart;
          }
        } else if (c != ' ') {
          state = kStart;
        }
        break;
      case kHref:
        if (c == '"') state = kLink;
        else if (c != ' ' && c != '=') state = kStart;
        break;
      case kLink: {
        int end = j;
        while (buf[offset + end] != '"') ++end;
        link(offset + j, offset + end);
        j = end;
        state = kStart;
        break;
      }
    }
  }
}

extern "C" __global__ void ii_map_count(const int4* __restrict__ index, const char* keys, const char* vals,
                                        int* key_bytes, int* val_bytes, int* pairs, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const int4 ix = index[t];
  const IiKey* key = reinterpret_cast<const IiKey*>(keys + ix.x);
  const IiVal* val = reinterpret_cast<const IiVal*>(vals + ix.z);
  int np = 0;
  ii_walk(key->file, val->offset, val->size, [&](int, int) { ++np; });
  key_bytes[t] = np * int(sizeof(IiKey));
  val_bytes[t] = np * int(sizeof(int));
  pairs[t] = np;
}

MARS_SCAN_KERNEL(ii)

extern "C" __global__ void ii_map(const int4* __restrict__ index, char* keys, const char* vals, const int* key_off,
                                  const int* val_off, const int* pair_off, char* out_keys, int* out_vals,
                                  int4* out_index, int nrecords) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nrecords) return;
  const int4 ix = index[t];
  IiKey* key = reinterpret_cast<IiKey*>(keys + ix.x);
  const IiVal* val = reinterpret_cast<const IiVal*>(vals + ix.z);
  char* file = key->file;
  int ko = key_off[t], vo = val_off[t], po = pair_off[t];
  ii_walk(file, val->offset, val->size, [&](int url, int end) {
    file[end] = '\0';
    key->url = url;
    IiKey* out = reinterpret_cast<IiKey*>(out_keys + ko);
    out->file = file;
    out->url = url;
    out->pad = 0;
    out_vals[vo / 4] = val->file_id;
    out_index[po] = make_int4(ko, sizeof(IiKey), vo, sizeof(int));
    ko += sizeof(IiKey);
    vo += sizeof(int);
    ++po;
  });
}

MARS_GROUP_KERNELS(ii, IiCompare)
