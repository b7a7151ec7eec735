// app/process_memory.h: the kernel's counts read right, and anything else refused.
#include "app/process_memory.h"

#include <gtest/gtest.h>

namespace steerd {
namespace {

TEST(ProcessMemory, ReadsResidentAndPeakInBytes) {
  const auto m =
      parseProcessMemory("Name:\tsteerd\nVmPeak:\t  999 kB\nVmHWM:\t  2048 kB\nVmRSS:\t    1024 kB\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->residentBytes, 1024u * 1024u);
  EXPECT_EQ(m->peakResidentBytes, 2048u * 1024u);
}

TEST(ProcessMemory, MissingOrMalformedLinesGiveNothing) {
  EXPECT_FALSE(parseProcessMemory(""));
  EXPECT_FALSE(parseProcessMemory("VmRSS:\t1024 kB\n")) << "no peak";
  EXPECT_FALSE(parseProcessMemory("VmRSS:\tlots kB\nVmHWM:\t1 kB\n"));
  EXPECT_FALSE(parseProcessMemory("VmRSS:\t12 MB\nVmHWM:\t1 kB\n")) << "another unit";
  EXPECT_FALSE(parseProcessMemory("VmRSS:\t99999999999999999999999 kB\nVmHWM:\t1 kB\n")) << "overflow";
  EXPECT_FALSE(parseProcessMemory("XVmRSS:\t1 kB\nVmHWM:\t1 kB\n")) << "another field's name";
}

TEST(ProcessMemory, ThisProcessHoldsSomethingAndItsPeakIsAtLeastThat) {
  const auto m = processMemory();
  ASSERT_TRUE(m) << "Linux has /proc/self/status";
  EXPECT_GT(m->residentBytes, 0u);
  EXPECT_GE(m->peakResidentBytes, m->residentBytes);
}

}  // namespace
}  // namespace steerd
