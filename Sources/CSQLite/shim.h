// SQLite's own C library (Debian's libsqlite3-dev; part of macOS): the build history's file.
#include <sqlite3.h>
