#include "net/snapshot_stage.h"

namespace steerd::net {

SnapshotStage::SnapshotStage(unsigned threads)
    : pool_(threads < 1 ? 1 : threads, "steerd-snapshot"), thread_([this] {
        nameThisThread("steerd-snapshot");
        loop();
      }) {}

SnapshotStage::~SnapshotStage() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();  // the loop finishes the job it holds first
}

SnapshotStage::ParallelFor SnapshotStage::parallelFor() {
  return [this](std::size_t count, std::size_t chunkSize, const Body& body) {
    pool_.parallelFor(count, chunkSize, body);
  };
}

void SnapshotStage::start(Job job) {
  {
    std::lock_guard lock(mutex_);
    job_ = std::move(job);
    busy_.store(true, std::memory_order_release);
  }
  wake_.notify_one();
}

void SnapshotStage::wait() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return !busy_.load(std::memory_order_acquire); });
}

void SnapshotStage::runHere(const Job& job) {
  wait();
  job(parallelFor());
}

void SnapshotStage::loop() {
  const ParallelFor run = parallelFor();
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || job_ != nullptr; });
    if (job_ == nullptr) return;  // stopping, nothing left
    Job job = std::move(job_);
    job_ = nullptr;
    lock.unlock();
    job(run);
    lock.lock();
    busy_.store(false, std::memory_order_release);
    idle_.notify_all();
  }
}

}  // namespace steerd::net
