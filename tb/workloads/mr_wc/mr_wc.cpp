// Host driver for mr_wc: word count as an application of a Mars-style
// MapReduce runtime (WC in the Mars suite: map and group; a word's count is
// its group's size). The text is upper-case words from a seeded vocabulary
// (400 words of 3 to 12 letters, drawn with Zipf-like frequencies) between
// single separators (space, newline, comma, full stop), ending with '\0'. The
// host cuts it into records as the application does: about 2048 bytes, then
// on to the end of the word there, whose following separator becomes '\0'.
// Pipeline: map count, three prefix sums (the host reads the totals back to
// size the intermediate buffers), map, the bitonic sort of the index entries
// by word, group marks, their prefix sum, group starts.
//
// Check: exact. The words of 6 letters or more, counted per record on the
// CPU, against the groups the GPU found: the same words in the same
// (strcmp) order with the same counts, and the number of groups.
#include <map>
#include <random>

#include "workloads/mars_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct WcVal {  // as the kernel's WcVal
  int32_t offset;
  int32_t size;
};

bool letter(char c) { return c >= 'A' && c <= 'Z'; }

class MrWc : public Workload {
 public:
  const char* name() const override { return "mr_wc"; }
  const char* description() const override {
    return "Mars-style MapReduce word count: byte walks over 2 KB records, bitonic group sort by word";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const size_t bytes = wl::by_size<size_t>(size, 4 << 10, 88 << 10, 352 << 10, 1408 << 10);
    const size_t chunk = 2048;

    // The text.
    std::mt19937_64 rng(seed);
    std::vector<std::string> vocab(400);
    for (auto& w : vocab) {
      const uint32_t len = 3 + wl::uniform_u32(rng, 10);
      for (uint32_t i = 0; i < len; ++i) w.push_back(char('A' + wl::uniform_u32(rng, 26)));
    }
    std::vector<double> weight(vocab.size());
    for (size_t r = 0; r < vocab.size(); ++r) weight[r] = 1.0 / double(r + 1);
    std::discrete_distribution<size_t> pick(weight.begin(), weight.end());
    const char separators[] = {' ', ' ', ' ', ' ', ' ', '\n', ',', '.'};
    std::vector<char> text;
    while (text.size() < bytes) {
      const std::string& w = vocab[pick(rng)];
      text.insert(text.end(), w.begin(), w.end());
      text.push_back(separators[wl::uniform_u32(rng, sizeof(separators))]);
    }
    const size_t len = text.size();
    text.push_back('\0');

    // The records, and the reference counts per record.
    std::vector<WcVal> vals;
    std::map<std::string, int> ref;
    size_t offset = 0;
    while (offset < len) {
      size_t end = std::min(offset + chunk, len);
      while (end < len && letter(text[end])) ++end;
      text[end] = '\0';
      vals.push_back(WcVal{int32_t(offset), int32_t(end + 1 - offset)});
      for (size_t i = offset; i < end;) {
        size_t j = i;
        while (j < end && letter(text[j])) ++j;
        if (j - i >= 6) ++ref[std::string(&text[i], j - i)];
        i = j + 1;
      }
      offset = end + 1;
    }
    const int nrec = int(vals.size());

    load_workload_ptx(dev, "mr_wc");
    DevPtr dtext = dev.upload(text);
    const mars::MapInput in = mars::map_count(dev, "wc", std::vector<uint64_t>(nrec, dtext), vals);
    const mars::Grouped g = mars::map_and_group(dev, "wc", in);
    const int key_total = in.key_total, pairs = g.pairs, npad = g.npad, first = g.first, groups = g.groups;

    // Compare.
    WorkloadResult r;
    const std::vector<mars::Entry> entries = dev.download<mars::Entry>(g.entries, npad);
    const std::vector<char> inter = dev.download<char>(g.keys, std::max(key_total, 1));
    const std::vector<int32_t> starts = dev.download<int32_t>(g.starts, std::max(groups, 1));
    if (groups != int(ref.size())) {
      r.detail = "groups: " + std::to_string(groups) + ", expected " + std::to_string(ref.size());
    } else {
      r.verified = true;
      int g = 0;
      for (const auto& [word, count] : ref) {
        const int begin = starts[g], end = g + 1 < groups ? starts[g + 1] : pairs;
        const mars::Entry& e = entries[size_t(first + begin)];
        const bool in_range = e.x >= 0 && e.x < key_total;
        const std::string got = in_range ? std::string(&inter[size_t(e.x)]) : std::string("<bad offset>");
        if (got != word || end - begin != count) {
          r.verified = false;
          r.detail = "group " + std::to_string(g) + ": \"" + got + "\" x " + std::to_string(end - begin) +
                     ", expected \"" + word + "\" x " + std::to_string(count);
          break;
        }
        ++g;
      }
      if (r.verified)
        r.detail = std::to_string(in.records) + " records, " + std::to_string(pairs) + " words of 6+ letters in " +
                   std::to_string(groups) + " groups: words and counts match";
    }
    in.free(dev);
    g.free(dev);
    dev.free(dtext);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mr_wc() { return std::make_unique<MrWc>(); }

}  // namespace warptlm
