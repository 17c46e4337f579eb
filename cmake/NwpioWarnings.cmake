# nwpio_set_warnings(target): warnings on for nwpio's own code; sanitizers when asked.
function(nwpio_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:Fortran>:-Wall -Wno-maybe-uninitialized>)
endfunction()

if(NWPIO_SANITIZE)
  add_compile_options(-fsanitize=${NWPIO_SANITIZE} -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${NWPIO_SANITIZE})
endif()
