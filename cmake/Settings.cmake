# Language standard, build type and sanitizer option.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()

option(MOONQUOTA_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
if(MOONQUOTA_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # GCC 12 under the sanitizers' instrumentation reports -Wmaybe-uninitialized inside libstdc++
  # (std::regex's std::function states, at -O1): its documented false positives. The -Werror build
  # without sanitizers keeps the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  add_link_options(-fsanitize=address,undefined)
  # Position-dependent code (every target here is an executable or a static library linked into
  # one): an instrumented PIE spends most of its start-up on ~900k dynamic relocations, and the
  # tests start the tools thousands of times.
  add_compile_options(-fno-pie)
  add_link_options(-no-pie)
endif()

# Hardening, as Debian's dpkg-buildflags asks of a package (lintian: hardening-no-fortify-functions,
# hardening-no-bindnow): fortified libc calls where the optimiser can see buffer sizes (glibc's
# _FORTIFY_SOURCE needs -O1 or more, so not in Debug), a stack protector, and a read-only GOT bound
# at start-up. Off under the sanitizers, which do those checks themselves.
option(MOONQUOTA_HARDEN "Build with _FORTIFY_SOURCE=2, -fstack-protector-strong and -z relro -z now" ON)
if(MOONQUOTA_HARDEN AND NOT MOONQUOTA_SANITIZE)
  add_compile_options(-fstack-protector-strong "$<$<NOT:$<CONFIG:Debug>>:-U_FORTIFY_SOURCE;-D_FORTIFY_SOURCE=2>")
  add_link_options(-Wl,-z,relro -Wl,-z,now)
endif()
