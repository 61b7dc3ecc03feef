//! After the win (issue 28): a circle's event slots and their placement, and what the desktop
//! submission tool reads.

mod slots;
mod tools;
