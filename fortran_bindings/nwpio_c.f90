! Interfaces of nwpio's C API (include/nwpio/nwpio.h), ISO_C_BINDING. Internal to the
! bindings: models use module nwpio, which wraps these with Fortran strings, optional ierr
! and generic procedures.
module nwpio_c
  use, intrinsic :: iso_c_binding
  implicit none
  public

  interface
    function c_last_error_copy(buf, size) bind(c, name='nwpio_last_error_copy') result(n)
      import :: c_char, c_size_t
      character(kind=c_char), intent(out) :: buf(*)
      integer(c_size_t), value :: size
      integer(c_size_t) :: n
    end function

    function c_open_f(stream, comm, namelist_file, domain_id, output_dir) bind(c, name='nwpio_open_f') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), intent(out) :: stream
      integer(c_int), value :: comm, domain_id
      character(kind=c_char), intent(in) :: namelist_file(*), output_dir(*)
      integer(c_int) :: rc
    end function

    function c_set_domain(stream, ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                          ips, ipe, jps, jpe, kps, kpe) bind(c, name='nwpio_set_domain') result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: stream
      integer(c_int), value :: ids, ide, jds, jde, kds, kde, ims, ime, jms, jme, kms, kme, &
                               ips, ipe, jps, jpe, kps, kpe
      integer(c_int) :: rc
    end function

    function c_def_dim(stream, name, length) bind(c, name='nwpio_def_dim') result(rc)
      import :: c_ptr, c_int, c_char, c_int64_t
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int64_t), value :: length
      integer(c_int) :: rc
    end function

    function c_def_var_dim(stream, name, kind, memory_order, stagger, description, units, vertical_dim) &
        bind(c, name='nwpio_def_var_dim') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: name(*), memory_order(*), stagger(*), description(*), &
                                            units(*), vertical_dim(*)
      integer(c_int), value :: kind
      integer(c_int) :: rc
    end function

    function c_put_att_int(stream, name, values, count) bind(c, name='nwpio_put_global_att_int') result(rc)
      import :: c_ptr, c_int, c_char, c_int32_t
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int32_t), intent(in) :: values(*)
      integer(c_int), value :: count
      integer(c_int) :: rc
    end function

    function c_put_att_float(stream, name, values, count) bind(c, name='nwpio_put_global_att_float') result(rc)
      import :: c_ptr, c_int, c_char, c_float
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: name(*)
      real(c_float), intent(in) :: values(*)
      integer(c_int), value :: count
      integer(c_int) :: rc
    end function

    function c_put_att_double(stream, name, values, count) bind(c, name='nwpio_put_global_att_double') result(rc)
      import :: c_ptr, c_int, c_char, c_double
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), intent(in) :: values(*)
      integer(c_int), value :: count
      integer(c_int) :: rc
    end function

    function c_put_att_text(stream, name, text) bind(c, name='nwpio_put_global_att_text') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: name(*), text(*)
      integer(c_int) :: rc
    end function

    function c_output_due(stream, date, due) bind(c, name='nwpio_output_due') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: date(*)
      integer(c_int), intent(out) :: due
      integer(c_int) :: rc
    end function

    function c_begin_frame(stream, date) bind(c, name='nwpio_begin_frame') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream
      character(kind=c_char), intent(in) :: date(*)
      integer(c_int) :: rc
    end function

    function c_write(stream, name, data, kind, ndims, lbound, ubound) bind(c, name='nwpio_write') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream, data
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: kind, ndims
      integer(c_int), intent(in) :: lbound(*), ubound(*)
      integer(c_int) :: rc
    end function

    function c_end_frame(stream) bind(c, name='nwpio_end_frame') result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: stream
      integer(c_int) :: rc
    end function

    function c_close(stream) bind(c, name='nwpio_close') result(rc)
      import :: c_ptr, c_int
      type(c_ptr), intent(inout) :: stream
      integer(c_int) :: rc
    end function

    function c_report_error(stream, status, message) bind(c, name='nwpio_report_error') result(rc)
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: stream
      integer(c_int), value :: status
      character(kind=c_char), intent(in) :: message(*)
      integer(c_int) :: rc
    end function

    subroutine c_abort(stream, code) bind(c, name='nwpio_abort')
      import :: c_ptr, c_int
      type(c_ptr), value :: stream
      integer(c_int), value :: code
    end subroutine

    function c_servers_start_f(world, namelist_file, is_server, compute_comm) &
        bind(c, name='nwpio_servers_start_f') result(rc)
      import :: c_int, c_char
      integer(c_int), value :: world
      character(kind=c_char), intent(in) :: namelist_file(*)
      integer(c_int), intent(out) :: is_server, compute_comm
      integer(c_int) :: rc
    end function

    function c_servers_stop() bind(c, name='nwpio_servers_stop') result(rc)
      import :: c_int
      integer(c_int) :: rc
    end function
  end interface
end module nwpio_c
