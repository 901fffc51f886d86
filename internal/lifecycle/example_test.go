package lifecycle

import "fmt"

// A session ends its match at frame 300 and leaves once the end is
// reached everywhere.
func Example() {
	e := &fakeEngine{frame: 120}
	var end End
	if err := end.Set(e, 300); err != nil {
		fmt.Println(err)
	}
	e.frame, e.confirmed, e.anyConfirmed = 300, 299, true
	fmt.Println("peers lack our inputs:", end.Reached(e))
	e.delivered = 300
	fmt.Println("every peer holds them:", end.Reached(e), end.Ended())
	// Output:
	// peers lack our inputs: false
	// every peer holds them: true true
}
