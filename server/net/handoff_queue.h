// Hands batches of items from one thread to another: producers push under a short lock, the
// consumer takes everything at once by swapping vectors (one lock per batch, not per item), so
// the simulation's hot loop never waits on the network thread.
#pragma once

#include <mutex>
#include <vector>

namespace steerd::net {

template <class T>
class HandoffQueue {
 public:
  void push(T item) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
  }
  void pushAll(std::vector<T>& items) {
    std::lock_guard lock(mutex_);
    for (auto& i : items) items_.push_back(std::move(i));
    items.clear();
  }
  // Moves every pending item into `out` (cleared first) and keeps out's old buffer for reuse.
  void takeAll(std::vector<T>& out) {
    out.clear();
    std::lock_guard lock(mutex_);
    items_.swap(out);
  }

 private:
  std::mutex mutex_;
  std::vector<T> items_;
};

}  // namespace steerd::net
