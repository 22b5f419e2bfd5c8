// A pointer to an array of the struct itself: legal Rust, not legal C (an
// array's element type must be complete). Made with sid's rustc 1.97.1 and
// pahole 1.32: rustc -g -O --emit=obj F.rs -o F.o; pahole -J F.o; the
// reproducer beside this file is its .BTF section (objcopy --dump-section).
#![crate_type = "lib"]
#![no_std]
#[repr(C)]
pub struct Node {
    pub pair: *const [Node; 2],
    pub value: i32,
}
#[no_mangle]
pub static mut ROOT: Node = Node { pair: core::ptr::null(), value: 0 };
#[no_mangle]
pub extern "C" fn node_value(n: &Node) -> i32 { n.value }
