# Build time on a 2-core machine: unity batches and precompiled headers, both on by default.
# -DMOONQUOTA_UNITY=OFF -DMOONQUOTA_PCH=OFF compiles every source alone, which shows a source
# that compiles only thanks to what its batch or the precompiled header included before it.
# Two sources of one target may not define the same name in an anonymous namespace (they can
# share a batch): give such helpers names of their own, or share one function.
option(MOONQUOTA_UNITY "Compile each target's sources in unity batches" ON)
option(MOONQUOTA_PCH "Precompile the standard and third-party headers most sources include" ON)
set(MOONQUOTA_UNITY_BATCH 12 CACHE STRING "Sources per unity batch")

# moonquota_build_speed(TARGET [HEADERS <header>...]): unity batches for TARGET and, with
# HEADERS, a precompiled header made of them (standard headers and third-party headers the
# target's folder may include: scripts/check-layers.sh).
function(moonquota_build_speed target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS")
  if(MOONQUOTA_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${MOONQUOTA_UNITY_BATCH})
  endif()
  if(MOONQUOTA_PCH AND arg_HEADERS)
    target_precompile_headers(${target} PRIVATE ${arg_HEADERS})
  endif()
endfunction()
