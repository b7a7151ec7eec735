// libFuzzer target for the glTF level importer: any bytes, read both as a .glb and as .gltf JSON,
// must give a mesh that passes checkLevelMesh or an error that names the file, never a crash, a
// sanitizer report or a read past a buffer. No base folder, so no external file is ever opened;
// the limits are small so that a large count is refused rather than allocated.
// Built with clang by scripts/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "level/level_mesh.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  steerd::level::MeshImportOptions options;
  options.maxTriangles = 100'000;
  options.maxFileBytes = std::size_t{1} << 20;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const bool binary : {true, false}) {
    const std::string name = binary ? "fuzz.glb" : "fuzz.gltf";
    const steerd::level::MeshLoad r = steerd::level::loadGltfBytes(bytes, binary, name, "", options);
    if (!r.error.empty()) {
      if (r.error.rfind(name + ": ", 0) != 0) __builtin_trap();  // every refusal names the file
      continue;
    }
    // A mesh that loads is one the checks pass: indices in range, finite, within the limits.
    if (!steerd::level::checkLevelMesh(r.mesh, options, name).empty()) __builtin_trap();
  }
  return 0;
}
