# Embeds backend/abi.h, engine.h and prelude.h as C strings (cg_text_abi,
# cg_text_engine, cg_text_prelude) in OUT: the backend copies them into every file it emits.
function(embed var path out)
  file(READ ${path} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" hex "${hex}")
  set(${out} "${${out}}const char ${var}[] = {\n${hex}0};\n" PARENT_SCOPE)
endfunction()
set(text "/* Generated from backend/abi.h and backend/prelude.h by cmake/embed.cmake. */\n")
embed(cg_text_abi ${ABI} text)
embed(cg_text_engine ${ENGINE} text)
embed(cg_text_prelude ${PRELUDE} text)
file(WRITE ${OUT}.tmp "${text}")
file(RENAME ${OUT}.tmp ${OUT})
