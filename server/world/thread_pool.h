// A fixed pool of worker threads for the tick's parallel phases.
//
// parallelFor cuts [0, count) into fixed chunks of `chunkSize`; workers (and the calling thread)
// claim chunks from an atomic counter. Which thread runs which chunk varies run to run, so callers
// must write only to per-index outputs: with the world's double buffer that makes the result
// bit-identical for any number of threads. One atomic per chunk, none per agent.
//
// A tick runs several parallelFors a few hundred microseconds apart, and waking a sleeping thread
// costs tens of microseconds (more in a VM). So a worker that finishes spins briefly for the next
// one, and so does the caller waiting for the workers, before sleeping on the condition
// variable: between ticks they sleep.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace steerd {

// Names the calling thread (Linux: at most 15 characters are kept).
void nameThisThread(const char* name);

class ThreadPool {
 public:
  // threads >= 1: the calling thread counts as one, so threads - 1 workers are started.
  // `name`: the workers' thread name (what top -H and a debugger show), at most 15 characters.
  explicit ThreadPool(unsigned threads, const char* name = "steerd-step");
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threadCount() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls body(begin, end) for every chunk of [0, count); returns when all chunks are done.
  void parallelFor(std::size_t count, std::size_t chunkSize,
                   const std::function<void(std::size_t, std::size_t)>& body);

 private:
  void workerLoop();
  void runChunks();
  // Spins while `busy()` holds, for at most kSpin; true if it stopped holding.
  template <class Busy>
  static bool spinWhile(Busy&& busy);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  // Written under mutex_ (so the condition variables' predicates hold), read without it to spin.
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> generation_{0};   // bumped per parallelFor; workers wait for a new one
  std::atomic<unsigned> pendingWorkers_{0};  // workers that have not finished the current generation

  // The job being run (valid while a parallelFor is in flight).
  const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
  std::size_t count_ = 0;
  std::size_t chunkSize_ = 1;
  std::atomic<std::size_t> nextChunk_{0};
};

}  // namespace steerd
