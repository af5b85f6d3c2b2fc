// fuzz finding (issue 14): internal-error [parse] tmem-opt: internal error: error: argument out of range (set TMEM_TRACEBACK=_ for the Python traceback, and please report it)


// A strided fragment needs registers up to its largest index: 2 * 3 + 1 = 7.
!acc = !tcgen05.tmem<128x256xf32, S[(128, 256) : (1@TLane, 1@TCol)]>

func.func @k(%a: i32) {
  %b = tcgen05.decl_buffer %a : !acc
  %t = tcgen05.tile_load %b [0, 1000000000000000000000000000000] [128, 4] frag <S[(4, 32, 4) : (1@warpid, 1@laneid, 2)]> : !acc -> vector<4xf32>
  func.return
}
