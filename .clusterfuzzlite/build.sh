#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz: every fuzz target of elfmeta with the compiler,
# flags and engine of the environment ($CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE), into $OUT with a seed corpus per target.
build=$WORK/elfmeta-build
cmake -S "$SRC/elfmeta" -B "$build" -G Ninja -DELFMETA_FUZZ=ON \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
for target in "$build"/fuzz/fuzz_*; do
  [ -x "$target" ] && [ -f "$target" ] && cp "$target" "$OUT/"
done
# Dictionaries: $OUT/<target>.dict, which the engine passes as -dict.
while read -r target dict; do
  case $target in ''|'#'*) continue ;; esac
  cp "$SRC/elfmeta/fuzz/dict/$dict" "$OUT/$target.dict"
done < "$SRC/elfmeta/fuzz/dict/targets"
for seeds in "$SRC"/elfmeta/fuzz/corpus/*/; do
  name=$(basename "$seeds")
  (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done
