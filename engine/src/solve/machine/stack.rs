//! [`TopStack`]: a stack that keeps one number derived from its top element.

/// A stack with one number derived from its top element ([`Top::of_top`]), kept up to date by
/// the operations that change the top, so that the step loop reads one field. Reads go through
/// `Deref` to the slice; an element is never changed in place in a way that changes its number.
#[derive(Debug)]
pub(super) struct TopStack<T> {
    pub(super) v: Vec<T>,
    pub(super) top: u64,
}

/// The number a [`TopStack`] keeps for its top element (`None`: the stack is empty).
pub(super) trait Top: Sized {
    fn of_top(top: Option<&Self>) -> u64;
}

impl<T: Top> Default for TopStack<T> {
    fn default() -> Self {
        TopStack {
            v: Vec::new(),
            top: T::of_top(None),
        }
    }
}

impl<T: Top> TopStack<T> {
    #[inline]
    pub(super) fn update(&mut self) {
        self.top = T::of_top(self.v.last());
    }

    #[inline]
    pub(super) fn push(&mut self, x: T) {
        self.top = T::of_top(Some(&x));
        self.v.push(x);
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<T> {
        let x = self.v.pop();
        self.update();
        x
    }

    #[inline]
    pub(super) fn truncate(&mut self, n: usize) {
        self.v.truncate(n);
        self.update();
    }

    #[inline]
    pub(super) fn clear(&mut self) {
        self.v.clear();
        self.update();
    }

    /// Inserts `x` at `i` (at most one place below the top).
    pub(super) fn insert(&mut self, i: usize, x: T) {
        self.v.insert(i, x);
        self.update();
    }
}

impl<T> std::ops::Deref for TopStack<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.v
    }
}

impl<T> std::ops::DerefMut for TopStack<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.v
    }
}
