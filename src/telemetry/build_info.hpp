#pragma once
// What this binary is: the project version (CMake's project()) and the git revision it was built from, for
// --version and the syncml_build_info metric. The revision is taken when CMake configures (a commit re-runs that
// step) and lives in one small generated file, build_info_revision.cpp, so a new commit recompiles only that file.

namespace syncml::server {

const char* build_version();
// The abbreviated commit id, "unknown" outside a git checkout (a source archive, the container build, whose
// context has no .git: its SYNCML_REVISION build argument then names it).
const char* build_revision();

}  // namespace syncml::server
