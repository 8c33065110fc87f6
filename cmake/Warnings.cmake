# Warning flags shared by every target of ours (not by third-party headers, which are system headers).
add_library(moonquota_warnings INTERFACE)
target_compile_options(moonquota_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual)
option(MOONQUOTA_WERROR "Treat warnings as errors" OFF)
if(MOONQUOTA_WERROR)
  target_compile_options(moonquota_warnings INTERFACE -Werror)
endif()
