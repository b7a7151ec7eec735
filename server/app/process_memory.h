// What the process holds in memory, from the kernel's own count (/proc/self/status): the
// headless report's memory per agent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace steerd {

struct ProcessMemory {
  std::uint64_t residentBytes = 0;      // VmRSS: now
  std::uint64_t peakResidentBytes = 0;  // VmHWM: the most it has held
};

// Read from the text of /proc/self/status (its "VmRSS:" and "VmHWM:" lines, in kB); none when
// either is missing or malformed.
std::optional<ProcessMemory> parseProcessMemory(const std::string& status);
// This process's, now; none where /proc is not there (not Linux).
std::optional<ProcessMemory> processMemory();

}  // namespace steerd
