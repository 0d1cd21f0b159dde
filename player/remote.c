/* remote.c: placeholder of the player stage (player/player.h); being written. */
#include "player.h"
typedef int player_remote_placeholder;
