// Blobs whose verdict changed between releases, so that a differential test
// against a real kernel shows which side of each change it is on: the 7.1 to
// 7.2 changes of the BTF verifier (wide vlen, no type-tag order, kptr tags
// anywhere in the modifier chain, record-wide unique fields, the ownership
// depth bound) and their 6.12 stable backports. Each shape comes with the
// twin on the other side of the boundary where there is one.
#pragma once

#include <string>
#include <vector>

#include "tests/btf/differential_corpus.h"

namespace elfmeta::testing {

std::vector<Sample> release_shapes();

}  // namespace elfmeta::testing
