// The public header must compile on its own as C++.
#include <bcast/bcast.h>
int bcast_header_alone_cxx() { return BCAST_OK; }
