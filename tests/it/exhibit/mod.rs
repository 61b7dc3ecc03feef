//! After the win (issue 28): a circle's event slots and their placement.

mod slots;
