package cli

// Root is the tree of client commands.
func Root() *command {
	root := &command{
		subs: []*command{
			loginCommand(),
			logoutCommand(),
			whoamiCommand(),
			useCommand(),
			workflowsCommand(),
			versionsCommand(),
			runsCommand(),
			pullCommand(),
			pushCommand(),
			importCommand(),
			exportCommand(),
			deployCommand(),
			rollbackCommand(),
			takedownCommand(),
			promoteCommand(),
			envsCommand(),
			triggerCommand(),
			testCommand(),
			sendEventCommand(),
			eventsCommand(),
			mcpCommand(),
			completionCommand(),
		},
	}
	return root.link()
}

// Command is a top-level client command as the edgeflow binary lists it.
type Command struct {
	Name    string
	Summary string
}

// Commands lists the top-level client commands in order.
func Commands() []Command {
	var list []Command
	for _, c := range Root().subs {
		list = append(list, Command{Name: c.name, Summary: c.summary})
	}
	return list
}
