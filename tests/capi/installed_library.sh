#!/usr/bin/env bash
# `cmake --install` puts libsteerd-client (with its SONAME), steerd_client.h, a pkg-config file and a
# CMake package config under a prefix; a C program built against them with pkg-config and with
# find_package, as a game's build would, runs and reads the ABI version.
#   installed_library.sh BUILD_DIR
set -uo pipefail
build=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cmake --install "$build" --prefix "$t/prefix" --component Unspecified >"$t/install.log" 2>&1 ||
  { echo "FAIL: cmake --install"; tail -n 5 "$t/install.log"; exit 1; }
lib=$(ls "$t"/prefix/lib*/libsteerd-client.so.1 2>/dev/null | head -n1)
[ -n "$lib" ] || { echo "FAIL: no libsteerd-client.so.1 installed"; find "$t/prefix"; exit 1; }
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libsteerd-client.so.1 ] || { echo "FAIL: SONAME $soname"; exit 1; }
cat >"$t/main.c" <<'C'
#include <stdio.h>
#include <steerd_client.h>
int main(void) {
  if (steerd_client_abi_version() != STEERD_CLIENT_ABI_VERSION) return 1;
  steerd_client* c = NULL;
  steerd_client_options o = {0};
  o.server = "127.0.0.1:7777";
  if (steerd_client_create(&o, &c) != STEERD_OK) return 2;
  printf("abi %d, state %d\n", steerd_client_abi_version(), (int)steerd_client_state(c));
  steerd_client_destroy(c);
  return 0;
}
C
libdir=$(dirname "$lib")
export PKG_CONFIG_PATH="$libdir/pkgconfig"
cc -std=c99 -Wall -Werror "$t/main.c" $(pkg-config --cflags --libs steerd-client) -Wl,-rpath,"$libdir" -o "$t/pc" ||
  { echo "FAIL: a C program does not build with pkg-config steerd-client"; exit 1; }
"$t/pc" || { echo "FAIL: the pkg-config build does not run"; exit 1; }
mkdir -p "$t/cm"
cat >"$t/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(uses_steerd C)
find_package(steerd_client 1 REQUIRED)
add_executable(main ../main.c)
target_link_libraries(main PRIVATE steerd::steerd_client_c)
CM
cmake -S "$t/cm" -B "$t/cm/build" -DCMAKE_PREFIX_PATH="$t/prefix" -DCMAKE_BUILD_RPATH="$libdir" >"$t/cm.log" 2>&1 &&
  cmake --build "$t/cm/build" >>"$t/cm.log" 2>&1 ||
  { echo "FAIL: find_package(steerd_client)"; tail -n 8 "$t/cm.log"; exit 1; }
"$t/cm/build/main" || { echo "FAIL: the find_package build does not run"; exit 1; }
echo "ok: installed $soname, built with pkg-config and with find_package"
