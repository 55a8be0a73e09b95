// Host driver for mr_sm: string match as an application of a Mars-style
// MapReduce runtime (SM in the Mars suite: map only; its run script looks for
// "org"). The text is one lower-case word per line, from a seeded vocabulary
// of 2 to 10 letters with "org" and its near misses ("orgs", "or", "ogr")
// among them; the host cuts it into records as the application does: about
// 1024 bytes, then on to the end of that line. Pipeline: map count, three
// prefix sums (the host reads the totals back to size the output), map.
//
// Check: exact. Every line equal to the keyword, found on the CPU record by
// record, against the output: the same {offset, size} pairs in the same
// order (records in order, lines in order within a record), and the index.
#include <random>

#include "workloads/mars_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct SmKey {  // as the kernel's SmKey
  uint64_t text;
  uint64_t keyword;
};
struct alignas(16) SmVal {  // as the kernel's SmVal
  int32_t keyword_size;
  int32_t offset;
  int32_t size;
};
static_assert(sizeof(SmKey) == 16 && sizeof(SmVal) == 16, "record layout");

class MrSm : public Workload {
 public:
  const char* name() const override { return "mr_sm"; }
  const char* description() const override {
    return "Mars-style MapReduce string match: byte walks over 1 KB records of one word per line, map only";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const size_t bytes = wl::by_size<size_t>(size, 16 << 10, 256 << 10, 1 << 20, 4 << 20);
    const size_t chunk = 1024;
    const std::string keyword = "org";

    std::mt19937_64 rng(seed);
    std::vector<std::string> vocab = {keyword, "orgs", "or", "ogr"};
    while (vocab.size() < 300) {
      std::string w;
      const uint32_t len = 2 + wl::uniform_u32(rng, 9);
      for (uint32_t i = 0; i < len; ++i) w.push_back(char('a' + wl::uniform_u32(rng, 26)));
      vocab.push_back(w);
    }
    std::vector<char> text;
    while (text.size() < bytes) {
      // "org" about one line in 50, its near misses as often, the rest uniform.
      const uint32_t r = wl::uniform_u32(rng, 50);
      const std::string& w = r < 4 ? vocab[r] : vocab[4 + wl::uniform_u32(rng, uint32_t(vocab.size() - 4))];
      text.insert(text.end(), w.begin(), w.end());
      text.push_back('\n');
    }
    const size_t len = text.size();
    DevPtr dkeyword = dev.upload(std::vector<char>(keyword.begin(), keyword.end() + 1));  // with its '\0'

    // The records, and the reference matches in output order.
    std::vector<SmVal> vals;
    std::vector<int32_t> ref_offsets, ref_sizes;
    for (size_t offset = 0; offset < len;) {
      size_t end = std::min(offset + chunk, len) - 1;
      while (text[end] != '\n') ++end;  // the text ends with a newline
      vals.push_back(SmVal{int32_t(keyword.size() + 1), int32_t(offset), int32_t(end + 1 - offset)});
      for (size_t s = offset; s <= end;) {
        size_t e = s;
        while (text[e] != '\n') ++e;
        if (std::string(&text[s], e - s) == keyword) {
          ref_offsets.push_back(int32_t(s));
          ref_sizes.push_back(int32_t(e + 1 - s));
        }
        s = e + 1;
      }
      offset = end + 1;
    }
    const int nrec = int(vals.size());

    load_workload_ptx(dev, "mr_sm");
    DevPtr dtext = dev.upload(text);
    const std::vector<SmKey> keys(nrec, SmKey{dtext, dkeyword});
    const mars::MapInput in = mars::map_count(dev, "sm", keys, vals);
    const int pairs = in.pair_total;
    DevPtr dout_keys = dev.malloc(std::max(in.key_total, 4));
    DevPtr dout_vals = dev.malloc(std::max(in.val_total, 4));
    DevPtr dout_index = dev.malloc(uint64_t(std::max(pairs, 1)) * sizeof(mars::Entry));
    mars::map(dev, "sm", in, dout_keys, dout_vals, dout_index);

    WorkloadResult r;
    if (pairs != int(ref_offsets.size())) {
      r.detail = "matches: " + std::to_string(pairs) + ", expected " + std::to_string(ref_offsets.size());
    } else {
      r = wl::check_exact("match offsets", dev.download<int32_t>(dout_keys, pairs), ref_offsets);
      if (r.verified) r = wl::check_exact("match sizes", dev.download<int32_t>(dout_vals, pairs), ref_sizes);
      if (r.verified) {
        const std::vector<mars::Entry> got = dev.download<mars::Entry>(dout_index, pairs);
        for (int i = 0; i < pairs && r.verified; ++i)
          if (got[i].x != 4 * i || got[i].y != 4 || got[i].z != 4 * i || got[i].w != 4) {
            r.verified = false;
            r.detail = "output index entry " + std::to_string(i) + " wrong";
          }
      }
      if (r.verified)
        r.detail = std::to_string(nrec) + " records, " + std::to_string(pairs) + " lines equal to \"" + keyword +
                   "\": offsets, sizes and index match";
    }
    in.free(dev);
    for (DevPtr p : {dkeyword, dtext, dout_keys, dout_vals, dout_index}) dev.free(p);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mr_sm() { return std::make_unique<MrSm>(); }

}  // namespace warptlm
