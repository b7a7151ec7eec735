#include "world/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace steerd {
namespace {

TEST(ThreadPool, EveryIndexRunsExactlyOnceForAnyThreadCountAndChunk) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.threadCount(), threads);
    for (std::size_t count : {0u, 1u, 7u, 1000u, 1025u}) {
      for (std::size_t chunk : {1u, 64u, 5000u}) {
        std::vector<std::atomic<int>> hits(count);
        pool.parallelFor(count, chunk, [&](std::size_t begin, std::size_t end) {
          ASSERT_LE(end - begin, chunk);
          for (std::size_t i = begin; i < end; ++i) hits[i].fetch_add(1);
        });
        for (std::size_t i = 0; i < count; ++i)
          ASSERT_EQ(hits[i].load(), 1) << threads << " " << count << " " << chunk;
      }
    }
  }
}

TEST(ThreadPool, ManyBackToBackJobsDoNotLoseOrRepeatWork) {
  ThreadPool pool(4);
  std::atomic<long> total{0};
  for (int job = 0; job < 2000; ++job) {
    pool.parallelFor(100, 7,
                     [&](std::size_t begin, std::size_t end) { total += static_cast<long>(end - begin); });
  }
  EXPECT_EQ(total.load(), 2000L * 100L);
}

TEST(ThreadPool, ZeroChunkSizeIsTreatedAsOne) {
  ThreadPool pool(2);
  std::atomic<int> calls{0};
  pool.parallelFor(5, 0, [&](std::size_t begin, std::size_t end) {
    EXPECT_EQ(end - begin, 1u);
    ++calls;
  });
  EXPECT_EQ(calls.load(), 5);
}

}  // namespace
}  // namespace steerd
