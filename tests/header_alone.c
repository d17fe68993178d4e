/* The public header must compile on its own as strict C99. */
#include <bcast/bcast.h>
int bcast_header_alone_c(void) { return BCAST_OK; }
