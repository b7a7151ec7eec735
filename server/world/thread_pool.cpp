#include "world/thread_pool.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <string>

namespace steerd {

void nameThisThread(const char* name) {
  const std::string shortName = std::string(name).substr(0, 15);
  pthread_setname_np(pthread_self(), shortName.c_str());
}

namespace {

constexpr std::chrono::microseconds kSpin{100};

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

template <class Busy>
bool ThreadPool::spinWhile(Busy&& busy) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (busy()) {
    for (int i = 0; i < 32; ++i) cpuRelax();
    if (std::chrono::steady_clock::now() > until) return !busy();
  }
  return true;
}

ThreadPool::ThreadPool(unsigned threads, const char* name) {
  const unsigned workers = threads > 1 ? threads - 1 : 0;
  workers_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) {
    workers_.emplace_back([this, name] {
      nameThisThread(name);
      workerLoop();
    });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::runChunks() {
  const std::size_t chunks = (count_ + chunkSize_ - 1) / chunkSize_;
  for (;;) {
    const std::size_t c = nextChunk_.fetch_add(1, std::memory_order_relaxed);
    if (c >= chunks) return;
    const std::size_t begin = c * chunkSize_;
    (*body_)(begin, std::min(count_, begin + chunkSize_));
  }
}

void ThreadPool::workerLoop() {
  std::size_t seen = 0;
  for (;;) {
    spinWhile([&] { return generation_.load(std::memory_order_acquire) == seen && !stopping_.load(); });
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
    }
    runChunks();
    bool last = false;
    {
      std::lock_guard lock(mutex_);
      last = --pendingWorkers_ == 0;
    }
    if (last) done_.notify_one();
  }
}

void ThreadPool::parallelFor(std::size_t count, std::size_t chunkSize,
                             const std::function<void(std::size_t, std::size_t)>& body) {
  if (count == 0) return;
  chunkSize = std::max<std::size_t>(chunkSize, 1);
  if (workers_.empty() || count <= chunkSize) {
    for (std::size_t b = 0; b < count; b += chunkSize) body(b, std::min(count, b + chunkSize));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    body_ = &body;
    count_ = count;
    chunkSize_ = chunkSize;
    nextChunk_.store(0, std::memory_order_relaxed);
    pendingWorkers_ = static_cast<unsigned>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  runChunks();
  if (spinWhile([&] { return pendingWorkers_.load(std::memory_order_acquire) != 0; })) {
    // Every worker has checked in; taking the lock orders its last writes before ours.
    std::lock_guard lock(mutex_);
    body_ = nullptr;
    return;
  }
  // Every worker checks in once per generation, even one that wakes after all chunks are gone, so
  // none can still be reading body_ or the chunk counter when the next parallelFor resets them.
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pendingWorkers_ == 0; });
  body_ = nullptr;
}

}  // namespace steerd
