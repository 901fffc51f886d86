// Package pace is rollstep's fixed-timestep accumulator, shared by the
// lockstep and rollback front ends. It turns the host's clock readings
// into a number of simulation steps to run, without reading a clock,
// starting a goroutine or using a float.
//
// # The schedule
//
// A step stands for one Period of time. The Pacer keeps the time owed to
// the schedule (the accumulator). Update(now) adds the time since the
// previous Update and grants the whole periods owed, capped at MaxSteps;
// each Step consumes one period. So step k is due k periods after the
// clock started (the first Update), and the phase is kept: a step taken
// late does not delay the next one.
//
// # Hitches
//
// After a hitch of h, ⌊h/Period⌋ steps are owed. One Update grants at most
// MaxSteps of them; the rest stay owed and each later Update grants up to
// MaxSteps again, so a backlog of k steps is worked off at MaxSteps − 1
// steps per Update beyond the schedule at one Update per period (more
// when Updates come faster). The host never runs an unbounded loop, which
// is what keeps a long hitch from becoming a spiral of death. With
// Config.MaxLag > 0 the owed time is also capped at MaxLag and the excess
// is forgotten (Dropped): the schedule slips instead of catching up.
//
// # Blocking and stalls
//
// A front end whose engine cannot step (lockstep waiting for an input)
// calls Block. Until the next Step, elapsed time is stall time, not owed
// time: the schedule slips by exactly the stall, so after a stall the next
// step is due one period after the blocked step's due time plus the stall,
// and a stall never turns into a burst of catch-up steps. Step returns the
// stall each step suffered; Stalled returns the total.
//
// # Interpolation and speed
//
// Fraction is the elapsed part of the current step as a fixed.F in
// [0, One]; a renderer draws the state interpolated between the previous
// and the current step. SetPeriod changes the period at any time (a game
// speed change), keeping the whole steps owed and the elapsed fraction.
//
// # Host loop
//
//  1. Read the clock once: now.
//  2. n := p.Update(now).
//  3. Up to n times: if the engine can step, step it and call p.Step();
//     otherwise call p.Block() and stop.
//  4. Render with p.Fraction().
package pace
