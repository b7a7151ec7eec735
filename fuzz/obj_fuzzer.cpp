// libFuzzer target for OBJ levels: any text loads or gives an error naming the file, never a crash
// or an index past the vertices; what loads passes checkLevelMesh (finite, in range, within the
// limits). Small limits keep each run short. Built with clang by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "level/level_mesh.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  steerd::level::MeshImportOptions options;
  options.maxFileBytes = std::size_t{1} << 20;
  options.maxTriangles = 100'000;
  if (size > 0 && (data[0] & 1) != 0) options.up = steerd::level::UpAxis::kZ;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const steerd::level::MeshLoad r = steerd::level::loadObjText(text, "fuzz.obj", options);
  if (!r.error.empty() && r.error.rfind("fuzz.obj: ", 0) != 0) std::abort();
  if (r.error.empty() && !steerd::level::checkLevelMesh(r.mesh, options, "fuzz.obj").empty()) std::abort();
  return 0;
}
