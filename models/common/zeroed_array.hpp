// A block's large fixed table (tag arrays, MSHR files) whose entries start as zero bytes that nobody wrote:
// a large one is mapped from the operating system, which supplies each page at its first touch, a small one
// comes from calloc. Building a large GPU so pays for the sets and entries a run uses, not for every one the
// GPU has (a 132-SM GPU's L1 and L2 lines are 26 MB, and zeroing them took a third of a tiny run). T's
// initial state must be all zero bytes: a field whose "none" is not zero is stored transformed (an entry
// index as index + 1, a tag inverted).
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>

// Under AddressSanitizer every table comes from calloc, whose blocks it fences with redzones: an index past a
// table's end is reported there, where a mapped table would let it run on into the next page.
#if defined(__SANITIZE_ADDRESS__)
#define WARPTLM_ZEROED_ARRAY_CALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPTLM_ZEROED_ARRAY_CALLOC 1
#endif
#endif

namespace warptlm {

template <class T>
class ZeroedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "a zeroed table holds plain entries: no constructor runs on them, none is destroyed");

 public:
  ZeroedArray() = default;
  explicit ZeroedArray(size_t n) : n_(n), mapped_(n * sizeof(T) >= kMapAt) {
    if (mapped_) {
      void* m = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      p_ = m == MAP_FAILED ? nullptr : static_cast<T*>(m);
    } else if (n) {
      p_ = static_cast<T*>(std::calloc(n, sizeof(T)));
    }
    if (n && !p_) throw std::bad_alloc();
  }
  ZeroedArray(const ZeroedArray&) = delete;
  ZeroedArray& operator=(const ZeroedArray&) = delete;
  ZeroedArray(ZeroedArray&& o) noexcept : n_(o.n_), mapped_(o.mapped_), p_(o.p_) { o.n_ = 0, o.p_ = nullptr; }
  ZeroedArray& operator=(ZeroedArray&& o) noexcept {
    if (this != &o) {
      release();
      n_ = o.n_, mapped_ = o.mapped_, p_ = o.p_;
      o.n_ = 0, o.p_ = nullptr;
    }
    return *this;
  }
  ~ZeroedArray() { release(); }

  size_t size() const { return n_; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T& operator[](size_t i) { return p_[i]; }
  const T& operator[](size_t i) const { return p_[i]; }
  T* begin() { return p_; }
  T* end() { return p_ + n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }

 private:
#ifdef WARPTLM_ZEROED_ARRAY_CALLOC
  static constexpr size_t kMapAt = SIZE_MAX;
#else
  static constexpr size_t kMapAt = 16 * 1024;  // bytes from which a table is mapped (calloc clears what it reuses)
#endif
  void release() {
    if (p_ && mapped_) munmap(p_, n_ * sizeof(T));
    else std::free(p_);
  }
  size_t n_ = 0;
  bool mapped_ = false;
  T* p_ = nullptr;
};

}  // namespace warptlm
