! A Fortran program calling SGEMM and SGEMV of liboclblas_cblas as any
! Fortran code does (character arguments with their hidden lengths), with
! its own XERBLA, which the library must call for an illegal argument.
program fortran_caller
    implicit none
    integer, parameter :: m = 37, n = 29, k = 41
    real :: a(m, k), b(k, n), c(m, n), x(k), y(m)
    real(8) :: s, mag, worst
    integer :: i, j, p

    call random_number(a)
    call random_number(b)
    call random_number(x)
    c = -1.0
    y = 3.0
    call sgemm('N', 'No transpose', m, n, k, 2.0, a, m, b, k, 0.0, c, m)
    worst = 0
    do j = 1, n
        do i = 1, m
            s = 0
            mag = 0
            do p = 1, k
                s = s + dble(a(i, p)) * dble(b(p, j))
                mag = mag + abs(dble(a(i, p)) * dble(b(p, j)))
            end do
            worst = max(worst, abs(c(i, j) - 2 * s) / ((k + 2) * epsilon(1.0) * 2 * mag + tiny(1.0)))
        end do
    end do
    if (worst <= 1) then
        print '(a)', 'sgemm passed'
    else
        print '(a, es10.3)', 'sgemm FAILED, error over bound ', worst
    end if

    call sgemv('n', m, k, 1.0, a, m, x, 1, 0.5, y, 1)
    worst = 0
    do i = 1, m
        s = 0
        mag = 0
        do p = 1, k
            s = s + dble(a(i, p)) * dble(x(p))
            mag = mag + abs(dble(a(i, p)) * dble(x(p)))
        end do
        worst = max(worst, abs(y(i) - (s + 1.5d0)) / ((k + 2) * epsilon(1.0) * (mag + 1.5d0)))
    end do
    if (worst <= 1) then
        print '(a)', 'sgemv passed'
    else
        print '(a, es10.3)', 'sgemv FAILED, error over bound ', worst
    end if

    ! LDA smaller than M: reported through this program's XERBLA.
    call sgemm('N', 'N', m, n, k, 1.0, a, 1, b, k, 0.0, c, m)
end program fortran_caller

subroutine xerbla(srname, info)
    character(len=*), intent(in) :: srname
    integer, intent(in) :: info
    print '(a, i0, 1x, a)', 'error report ', info, trim(srname)
end subroutine xerbla
