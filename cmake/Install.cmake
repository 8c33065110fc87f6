# `cmake --install` and `cpack -G DEB` (docs/operations.md, "Install"). Included last by the top
# CMakeLists.txt, once every tool is defined. Test programs (master-stand-in, the unit tests) are
# not installed.
include(GNUInstallDirs)

# cpack and the `install` target install what is built, they do not build: the package.deb test
# runs cpack while other tests run the tools, which a rebuild must not replace under them.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CMAKE_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

get_property(moonquota_tools GLOBAL PROPERTY MOONQUOTA_TOOLS)
install(TARGETS ${moonquota_tools} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(tool IN LISTS moonquota_tools)
  if(MOONQUOTA_MAN_PAGES)
    install(FILES ${PROJECT_BINARY_DIR}/man/${tool}.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
  install(FILES ${PROJECT_BINARY_DIR}/completions/bash/${tool}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${PROJECT_BINARY_DIR}/completions/zsh/_${tool}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
endforeach()

# Docs (CMAKE_INSTALL_DOCDIR is share/doc/moonquota), the deploy examples, the Debian copyright
# and changelog (gzip -n: the same bytes at every build).
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/deploy)
  install(DIRECTORY deploy/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/deploy)
endif()
install(FILES packaging/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The stores the --help and man-page examples name (snapshots/...), without the golden cases of our
# tests (expected/), so the examples run on an installed system from share/moonquota
# (cd /usr/share/moonquota && snapshot-inspect summary --store snapshots/sample/store): every
# snapshot-golden fixture of snapshots/ (docs/golden.md), with its args, expected.json,
# fingerprint.json and master.json, so `snapshot-golden check snapshots` passes there too.
foreach(example IN ITEMS sample spec-worked-example quota-worked-example survival survival-promote
                         survival-promote-dup live-audit promote-worked inspect-diff-a
                         genuine-live/r1_quiescent_orphan genuine/s1_single_segment_basic
                         genuine/s7_spec_worked_example)
  get_filename_component(parent "snapshots/${example}" DIRECTORY)
  install(DIRECTORY snapshots/${example} DESTINATION ${CMAKE_INSTALL_DATADIR}/moonquota/${parent}
          PATTERN expected EXCLUDE)
endforeach()

# The systemd units, installed but not enabled: nothing in the package starts them. Each reads its
# settings from /etc/moonquota/*.env (examples in share/doc/moonquota/deploy/systemd; docs/operations.md).
install(FILES deploy/systemd/moonquota-reconcile.service deploy/systemd/moonquota-rebuild-check.service
              deploy/systemd/moonquota-rebuild-check.timer
        DESTINATION lib/systemd/system)
set(moonquota_changelog_gz ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${moonquota_changelog_gz}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
  COMMAND sh -c "gzip -9 -n -c \"$0\" > \"$1\"" ${PROJECT_SOURCE_DIR}/packaging/debian/changelog
          ${moonquota_changelog_gz}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog VERBATIM)
add_custom_target(moonquota_changelog ALL DEPENDS ${moonquota_changelog_gz})
install(FILES ${moonquota_changelog_gz} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# --- the Debian package ---------------------------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME moonquota)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # moonquota_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "moonquota maintainers <moonquota@example.org>")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Runtime dependencies from the binaries' shared libraries (dpkg-shlibdeps, Debian package dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The synopsis, then the extended description (lines of at most 79 characters: lintian).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "tenant quota accounting tools for Mooncake Store masters
The tenant quota accounts a Mooncake Store master serves after a restart
or a failover, computed offline from its snapshot store (quota-rebuild),
and an audit of a live master against them (quota-reconcile); inspection
and verification of snapshot stores (snapshot-inspect) and of HA OpLogs
(oplog-inspect); a writer of genuine snapshot stores for tests
(snapshot-forge). Reads the formats of Mooncake upstream commit 3b5a5941.")
# `make package_source` / `cpack --config CPackSourceConfig.cmake`: a source tarball without the
# git metadata (its tools say `git unknown`), build trees or node_modules.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/[.]git/" "/[.]git$" "/build[^/]*/" "/[.]cache/" "/node_modules/")
include(CPack)
