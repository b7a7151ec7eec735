// Builds clients' snapshots off the simulation thread: one round at a time, on threads of its own,
// while the next tick steps. The tick then costs the same whatever the clients; what a busy box
// costs instead is the snapshot rate (a round that finds the stage still busy is not started, and
// its clients stay due for the next one), which the clients' snapshot interval shows.
//
// The stage runs a job; it does not know what a snapshot is. GameSession freezes what a round
// reads (the wire states, the due clients) before it starts one, and touches no ClientView while
// a round is in flight.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>

#include "world/thread_pool.h"

namespace steerd::net {

class SnapshotStage {
 public:
  using Body = std::function<void(std::size_t, std::size_t)>;
  using ParallelFor = std::function<void(std::size_t count, std::size_t chunkSize, const Body& body)>;
  using Job = std::function<void(const ParallelFor&)>;

  // `threads` >= 1 build snapshots: the stage's own thread and threads - 1 pool workers.
  explicit SnapshotStage(unsigned threads);
  ~SnapshotStage();  // waits for the round in flight
  SnapshotStage(const SnapshotStage&) = delete;
  SnapshotStage& operator=(const SnapshotStage&) = delete;

  // A round is in flight (started and not finished).
  bool busy() const { return busy_.load(std::memory_order_acquire); }
  // Starts `job` on the stage's thread and returns at once. Only when !busy().
  void start(Job job);
  // Blocks until no round is in flight.
  void wait();
  // Runs `job` on the calling thread with the stage's workers, after the round in flight.
  void runHere(const Job& job);

 private:
  void loop();
  ParallelFor parallelFor();

  ThreadPool pool_;
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  Job job_;                        // the round to run (set by start, under mutex_)
  bool stopping_ = false;          // under mutex_
  std::atomic<bool> busy_{false};  // from start() until the job returned
  std::thread thread_;
};

}  // namespace steerd::net
