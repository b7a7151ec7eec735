# Writes a C++ source defining `std::string_view FUNCTION()` that returns the bytes of INPUT,
# so a text file (the default scenario) is compiled into the binary. Run as
#   cmake -DINPUT=... -DOUTPUT=... -DFUNCTION=... -DHEADER=... -P embed_text.cmake
file(READ "${INPUT}" text HEX)
# Byte by byte: a raw string literal would break on a file that contains its delimiter.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${text}")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by embed_text.cmake: do not edit.\n#include \"${HEADER}\"\n\nnamespace steerd {\n\nnamespace {\nconstexpr char kText[] = {\n    ${bytes}'\\0'};\n}  // namespace\n\nstd::string_view ${FUNCTION}() { return {kText, sizeof(kText) - 1}; }\n\n}  // namespace steerd\n")
