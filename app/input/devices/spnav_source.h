#pragma once
// The real SpnavSource: libspnav's spnav_open / spnav_poll_event, talking to
// the spacenavd daemon. Without libspnav at build time (STICTION_HAVE_SPNAV
// unset) a source whose Open says so.
#include <memory>

#include "app/input/devices/spacemouse_device.h"

namespace stiction::app {

std::unique_ptr<SpnavSource> MakeLibspnavSource();

}  // namespace stiction::app
