"""Where tmem-insert-waits places the waits and fences the rules require (at the cause, before a loop or a barrier)."""

from __future__ import annotations

from xdsl.ir import Operation

from tmem_dialect.memory_model import EffectKind, Rule, Wait
from tmem_dialect.passes.analysis.ops import Action, OpInfo
from tmem_dialect.passes.analysis.state import Access, Local, WarpStates


class Placement:
    """Wait and fence placement for tmem-insert-waits (and, in verify mode, assumed fixes)."""

    def _local_fixes_dropped(self) -> None:
        for fixes in self._local_fixes.values():
            for anchor, action in fixes:
                actions = self.fixes_before.get(anchor, {})
                actions.pop(action, None)
                if not actions:
                    self.fixes_before.pop(anchor, None)
        self._local_fixes.clear()

    def _note_retiring(self, anchor: Operation, actions: dict[Action, set[Rule]], state: WarpStates) -> None:
        """Which placed waits retire an outstanding access on some path (the others go)."""
        for action in actions:
            kind = action.retires
            if kind is not None and any(a.kind is kind for local, _ in state for a in local.outstanding):
                self._retiring.add((anchor, action))

    def _drop_idle_waits(self) -> None:
        """Drop placed waits that retire nothing on any path of the final solution: a wait at its
        cause may have made one placed earlier (before a handoff barrier) idle. Without effect
        on any state, removing them changes nothing else. (Waits placed during the replay itself
        were not seen by it: they stay.)"""
        for anchor, actions in list(self.fixes_before.items()):
            for action in [a for a in actions if a.retires is not None]:
                if (anchor, action) in self._replayed and (anchor, action) not in self._retiring:
                    del actions[action]
                    self.fix_reasons.pop((anchor, action), None)
            if not actions:
                del self.fixes_before[anchor]

    def _requeue(self, op: Operation, action: Action) -> None:
        """A wait or fence placed away from where it was found removes facts that may already
        flow downstream (and around loops): solve that part again. Waits and fences placed
        there so far may rest on those facts: drop them; what is still needed comes back."""
        node = self.cfg.node_of.get(op)
        if node is None:
            return
        region = self.solver.restart_from(node)
        # Only waits placed right where they were found are dropped: they come back without
        # restarting anything, so the waits placed away from their cause (each added once)
        # bound the number of restarts.
        for member in region:
            for anchor, other in self._local_fixes.pop(member, ()):
                actions = self.fixes_before.get(anchor, {})
                actions.pop(other, None)
                if not actions:
                    self.fixes_before.pop(anchor, None)

    def _place_wait(self, anchor: Operation, at: OpInfo, wait: Wait, rule: Rule, local: Local) -> Local:
        action = Action.wait(wait)
        if not self.options.insert:
            # verify: assume the reported violation fixed right here, so it is reported once.
            return self._virtual(action, local)
        actions = self.fixes_before.setdefault(anchor, {})
        if action not in actions:
            actions[action] = {rule}
            if anchor is not at.op:
                self._requeue(anchor, action)
            else:
                self._local_fixes.setdefault(self.cfg.node_of[anchor], []).append((anchor, action))
                self._placed_at_cause += 1
        else:
            actions[action].add(rule)
        if anchor is not at.op:
            self._hoisted.setdefault(anchor, set()).add(action)
            return local
        if (at.op, action) not in self._waited_at_cause:
            self._waited_at_cause.add((at.op, action))
            self._drop_hoisted_for(at.op, action)
        return self._virtual(action, local)

    def _drop_hoisted_for(self, op: Operation, action: Action) -> None:
        """`op` waits right before itself after all (a later iteration of its loop needs that),
        and that wait retires whatever a wait of the same kind hoisted in front of the loop did
        for it. Drop such hoisted waits: solving the loop again brings one back if another op
        still needs it. Each op does this once per wait kind, which bounds the restarts."""
        for loop in self.cfg.loops_of(op):
            anchor = loop.entry_op
            hoisted = self._hoisted.get(anchor) if anchor is not None else None
            if hoisted is None or action not in hoisted:
                continue
            hoisted.discard(action)
            actions = self.fixes_before.get(anchor, {})
            actions.pop(action, None)
            if not actions:
                self.fixes_before.pop(anchor, None)
            self._requeue(anchor, action)

    def _wait_position(self, at: OpInfo, wait: Wait, accesses: list[Access], local: Local) -> Operation:
        """Where one wait serving `at` costs least: for a dealloc of accesses issued before the
        last barrier, before that barrier (the other warps need their wait there anyway, rule 4);
        else outside every loop that issued none of them (unless `at` needs its own wait anyway);
        else right before `at`."""
        if not self.options.insert or (at.op, Action.wait(wait)) in self._waited_at_cause:
            return at.op
        loops = self.cfg.loops_of(at.op)
        if at.kind is EffectKind.DEALLOC and all(a.escaped is not None for a in accesses):
            # Outstanding since before a barrier, they were outstanding at the last one too.
            if len(local.epoch) == 1 and (barrier := next(iter(local.epoch))) is not None:
                if set(self.cfg.loops_of(barrier)) <= set(loops):
                    return barrier
        for loop in loops:
            if loop.entry_op is None:
                continue
            if not any(loop.contains_op(self.cfg, a.info.op) for a in accesses):
                return loop.entry_op
        return at.op
