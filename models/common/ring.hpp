// A FIFO on a ring of preallocated slots, for hardware queues. It grows (by
// doubling) only when a push finds it full, which happens during warm-up at
// most a few times; the queues whose size the hardware bounds check their
// limit before pushing, so they never grow.
#pragma once
#include <cstddef>
#include <vector>

namespace warptlm {

template <typename T>
class Ring {
 public:
  explicit Ring(size_t capacity = 8) : slots_(capacity ? capacity : 1) {}

  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& operator[](size_t i) { return slots_[(head_ + i) % slots_.size()]; }  // i-th from the front
  const T& operator[](size_t i) const { return slots_[(head_ + i) % slots_.size()]; }

  void push_back(const T& v) {
    if (count_ == slots_.size()) grow();
    slots_[(head_ + count_) % slots_.size()] = v;
    ++count_;
  }
  void pop_front() {
    head_ = (head_ + 1) % slots_.size();
    --count_;
  }
  void reserve(size_t n) {
    while (slots_.size() < n) grow();
  }

 private:
  void grow() {
    std::vector<T> bigger(slots_.size() * 2);
    for (size_t i = 0; i < count_; ++i) bigger[i] = (*this)[i];
    slots_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> slots_;
  size_t head_ = 0, count_ = 0;
};

}  // namespace warptlm
