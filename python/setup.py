"""Builds gdlc's Python extension from the repository it lives in.

libgdl is configured and built first by CMake, position-independent and
without libtcc (Debian's libtcc.a is not position-independent, so it
cannot go into a shared object): GDLC_LIBTCC=OFF, GDLC_LIBRARY_ONLY=ON.
The extension links that static library. Nothing is downloaded.

GDLC_PYTHON_SANITIZE=1 builds both under AddressSanitizer and
UndefinedBehaviorSanitizer (the suite's ASan run: preload libasan).
"""
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SANITIZE = os.environ.get("GDLC_PYTHON_SANITIZE") == "1"


class BuildWithLibgdl(build_ext):
    """build_ext that first builds libgdl with CMake into the build folder."""

    def finalize_options(self):
        super().finalize_options()
        if SANITIZE:  # objects of their own, never the plain build's
            self.build_temp += "-sanitize"
            self.force = True

    def build_extensions(self):
        import numpy

        if not os.path.exists(os.path.join(ROOT, "CMakeLists.txt")):
            sys.exit("gdlc: setup.py builds from the gdlc repository (no CMakeLists.txt in %s)" % ROOT)
        out = os.path.abspath(os.path.join(self.build_temp, "libgdl" + ("-asan" if SANITIZE else "")))
        cfg = ["cmake", "-S", ROOT, "-B", out, "-DCMAKE_BUILD_TYPE=Release", "-DGDLC_LIBTCC=OFF",
               "-DGDLC_LIBRARY_ONLY=ON", "-DCMAKE_POSITION_INDEPENDENT_CODE=ON"]
        if SANITIZE:
            cfg += ["-DGDLC_SANITIZE=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]
        subprocess.check_call(cfg, stdout=subprocess.DEVNULL)
        subprocess.check_call(["cmake", "--build", out, "--target", "gdl", "-j", str(os.cpu_count() or 2)])
        with open(os.path.join(out, "gdl-link.txt")) as f:
            archive, *lines = [line.strip() for line in f if line.strip()]
        libs = [lib for line in lines for lib in line.split(";") if lib]  # CMake's lists
        for ext in self.extensions:
            ext.include_dirs += [os.path.join(ROOT, "include"), numpy.get_include()]
            ext.extra_objects += [archive] + libs
            ext.depends += [archive]  # relinked when libgdl changes
            ext.libraries += ["pthread", "dl", "m"]
            ext.extra_compile_args += ["-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Wno-unused-parameter",
                                       "-Wno-missing-field-initializers", "-Wno-cast-function-type"]
            if SANITIZE:
                flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
                ext.extra_compile_args += flags
                ext.extra_link_args += flags
        super().build_extensions()


setup(
    ext_modules=[Extension("gdlc._gdlc", sources=["gdlc/_gdlc.c"])],
    cmdclass={"build_ext": BuildWithLibgdl},
)
