// fuzz finding (issue 14): iree-opt-rejects [nvvm] empty block: expect at least a terminator


func.func @k(%a: i32) {
}

