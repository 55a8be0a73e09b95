// Host driver for mr_ii: inverted index as an application of a Mars-style
// MapReduce runtime (II in the Mars suite: map and group). Three seeded HTML
// samples of about 9 KB, 3 KB at tiny (lines of text, tags, and links to 200 URLs drawn with
// Zipf-like frequencies, some written with spaces around the tag's parts) are
// each repeated into one file, as the suite's run script builds its 28 MB from
// three samples repeated 1024 times (our large). Each file is its own device
// buffer; the host cuts it into records every 1024 bytes on to the end of that
// line, whose newline becomes '\0'. Pipeline: map count, three prefix sums,
// map, the bitonic sort of the entries by URL, group marks, their prefix sum,
// group starts.
//
// Check: exact. The same link automaton on the CPU, record by record; the
// groups must be the distinct URLs in strcmp order, each with the same
// multiset of file ids.
#include <algorithm>
#include <map>
#include <random>

#include "workloads/mars_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct IiKey {  // as the kernel's IiKey
  uint64_t file;
  int32_t url;
  int32_t pad;
};
struct IiVal {  // as the kernel's IiVal
  int32_t file_id, offset, size;
};
static_assert(sizeof(IiKey) == 16 && sizeof(IiVal) == 12, "record layout");

// The link automaton, as the kernel's: (URL offset, end) of each link in [offset, offset + size).
std::vector<std::pair<int, int>> links(const std::vector<char>& buf, int offset, int size) {
  std::vector<std::pair<int, int>> out;
  enum { kStart, kTag, kATag, kHref, kLink } state = kStart;
  for (int j = 0; j < size; ++j) {
    const char c = buf[size_t(offset + j)];
    switch (state) {
      case kStart: if (c == '<') state = kTag; break;
      case kTag: state = c == 'a' ? kATag : (c == ' ' ? kTag : kStart); break;
      case kATag:
        if (c == 'h') {
          const char* h = &buf[size_t(offset + j)];
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
        while (buf[size_t(offset + end)] != '"') ++end;
        out.emplace_back(offset + j, offset + end);
        j = end;
        state = kStart;
        break;
      }
    }
  }
  return out;
}

class MrIi : public Workload {
 public:
  const char* name() const override { return "mr_ii"; }
  const char* description() const override {
    return "Mars-style MapReduce inverted index: link automaton over 1 KB HTML records, bitonic group sort by URL";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int reps = wl::by_size(size, 1, 8, 32, 1024);
    const size_t sample_bytes = wl::by_size<size_t>(size, 3000, 9300, 9300, 9300);  // tiny: a shorter sample

    // Three samples, each repeated into a file.
    std::mt19937_64 rng(seed);
    std::vector<double> weight(200);
    for (size_t r = 0; r < weight.size(); ++r) weight[r] = 1.0 / double(r + 1);
    std::discrete_distribution<int> pick(weight.begin(), weight.end());
    const char* words[] = {"the", "page", "links", "to", "more", "news", "and", "data", "about", "it"};
    std::vector<std::vector<char>> files(3);
    for (auto& f : files) {
      std::string sample;
      while (sample.size() < sample_bytes) {
        std::string line = "<p>";
        for (uint32_t w = wl::uniform_u32(rng, 6); w > 0; --w) line += std::string(words[wl::uniform_u32(rng, 10)]) + " ";
        const int u = pick(rng);
        const std::string url = "http://www.site" + std::to_string(u / 10) + ".org/doc" + std::to_string(u % 10) + ".html";
        switch (wl::uniform_u32(rng, 4)) {
          case 0: line += "<a href=\"" + url + "\">see</a>"; break;
          case 1: line += "< a  href = \"" + url + "\">see</a>"; break;
          case 2: line += "<img src=\"" + url + "\"> <b>no link</b>"; break;
          default: line += "<a href=\"" + url + "\">one</a> <a href=\"" + url + "\">two</a>"; break;
        }
        sample += line + "</p>\n";
      }
      for (int r = 0; r < reps; ++r) f.insert(f.end(), sample.begin(), sample.end());
      f.push_back('\0');
    }

    // Records, and the reference index.
    std::vector<IiKey> keys;
    std::vector<IiVal> vals;
    std::map<std::string, std::vector<int>> ref;
    std::vector<DevPtr> dfiles;
    load_workload_ptx(dev, "mr_ii");
    for (int id = 0; id < 3; ++id) {
      std::vector<char>& f = files[size_t(id)];
      const int fsize = int(f.size());
      std::vector<IiVal> mine;
      for (int offset = 0; offset < fsize;) {
        int end = std::min(offset + 1024, fsize - 1);
        while (f[size_t(end)] != '\n' && f[size_t(end)] != '\0') ++end;
        f[size_t(end)] = '\0';
        mine.push_back(IiVal{id, offset, end + 1 - offset});
        offset = end + 1;
      }
      for (const IiVal& v : mine)
        for (const auto& [url, end] : links(f, v.offset, v.size))
          ref[std::string(&f[size_t(url)], size_t(end - url))].push_back(id);
      dfiles.push_back(dev.upload(f));
      for (const IiVal& v : mine) {
        keys.push_back(IiKey{dfiles.back(), 0, 0});
        vals.push_back(v);
      }
    }

    const mars::MapInput in = mars::map_count(dev, "ii", keys, vals);
    const mars::Grouped g = mars::map_and_group(dev, "ii", in);
    const int pairs = g.pairs, npad = g.npad, first = g.first, groups = g.groups;

    WorkloadResult r;
    if (groups != int(ref.size())) {
      r.detail = "groups: " + std::to_string(groups) + ", expected " + std::to_string(ref.size()) + " URLs";
    } else {
      std::vector<std::vector<char>> got_files;
      for (int id = 0; id < 3; ++id) got_files.push_back(dev.download<char>(dfiles[size_t(id)], files[size_t(id)].size()));
      const std::vector<mars::Entry> sorted = dev.download<mars::Entry>(g.entries, npad);
      const std::vector<IiKey> gkeys = dev.download<IiKey>(g.keys, size_t(pairs));
      const std::vector<int32_t> gvals = dev.download<int32_t>(g.vals, size_t(pairs));
      const std::vector<int32_t> starts = dev.download<int32_t>(g.starts, size_t(groups));
      r.verified = true;
      int g = 0;
      for (auto& [url, ids] : ref) {
        const int begin = starts[size_t(g)], end = g + 1 < groups ? starts[size_t(g) + 1] : pairs;
        std::vector<int> got_ids;
        std::string got_url = "<bad entry>";
        for (int i = begin; i < end; ++i) {
          const mars::Entry& e = sorted[size_t(first + i)];
          if (e.x < 0 || size_t(e.x) / 16 >= gkeys.size() || e.z < 0 || size_t(e.z) / 4 >= gvals.size()) break;
          const int id = gvals[size_t(e.z) / 4];
          got_ids.push_back(id);
          if (i == begin && id >= 0 && id < 3) got_url = std::string(&got_files[size_t(id)][size_t(gkeys[size_t(e.x) / 16].url)]);
        }
        std::sort(ids.begin(), ids.end());
        std::sort(got_ids.begin(), got_ids.end());
        if (got_url != url || got_ids != ids) {
          r.verified = false;
          r.detail = "group " + std::to_string(g) + ": " + got_url + " in " + std::to_string(got_ids.size()) +
                     " places, expected " + url + " in " + std::to_string(ids.size());
          break;
        }
        ++g;
      }
      if (r.verified)
        r.detail = std::to_string(in.records) + " records, " + std::to_string(pairs) + " links to " +
                   std::to_string(groups) + " URLs: URLs and their files match";
    }
    in.free(dev);
    for (DevPtr p : dfiles) dev.free(p);
    g.free(dev);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mr_ii() { return std::make_unique<MrIi>(); }

}  // namespace warptlm
