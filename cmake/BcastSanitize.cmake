# AddressSanitizer + UndefinedBehaviorSanitizer for every target; any UB report
# is fatal so that ctest sees it.
add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
